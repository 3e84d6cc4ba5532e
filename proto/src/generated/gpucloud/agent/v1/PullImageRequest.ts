// Original file: agent/v1/agent.proto

import type { RegistryAuth as _gpucloud_agent_v1_RegistryAuth, RegistryAuth__Output as _gpucloud_agent_v1_RegistryAuth__Output } from '../../../gpucloud/agent/v1/RegistryAuth';

export interface PullImageRequest {
  'image'?: (string);
  'auth'?: (_gpucloud_agent_v1_RegistryAuth | null);
}

export interface PullImageRequest__Output {
  'image': (string);
  'auth': (_gpucloud_agent_v1_RegistryAuth__Output | null);
}
