// Original file: agent/v1/agent.proto

import type { GpuInfo as _gpucloud_agent_v1_GpuInfo, GpuInfo__Output as _gpucloud_agent_v1_GpuInfo__Output } from '../../../gpucloud/agent/v1/GpuInfo';
import type { Long } from '@grpc/proto-loader';

export interface GpuSample {
  'timeUnixMs'?: (number | string | Long);
  'gpus'?: (_gpucloud_agent_v1_GpuInfo)[];
}

export interface GpuSample__Output {
  'timeUnixMs': (string);
  'gpus': (_gpucloud_agent_v1_GpuInfo__Output)[];
}
