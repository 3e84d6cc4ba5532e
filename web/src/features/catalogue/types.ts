import type { FrameworkVersion } from '@gpucloud/control-plane/api';

// Frameworks, versions, images and products (and what saving them sends) are the control
// plane's types (@gpucloud/control-plane/api).

export type SystemType = FrameworkVersion['system_type'];
