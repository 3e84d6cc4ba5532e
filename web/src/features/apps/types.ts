import type { DeployPayload, ImageCategory } from '@gpucloud/control-plane/api';

// App images and the deployment are the control plane's types (@gpucloud/control-plane/api);
// these are the drawer's names for parts of them.

export type AppCategory = ImageCategory;

export type DeployGpuType = DeployPayload['gpu_type'];

/** One row of the environment variables editor. */
export type EnvEntry = NonNullable<DeployPayload['env']>[number];
