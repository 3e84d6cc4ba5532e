// Original file: agent/v1/agent.proto

import type { RegistryAuth as _gpucloud_agent_v1_RegistryAuth, RegistryAuth__Output as _gpucloud_agent_v1_RegistryAuth__Output } from '../../../gpucloud/agent/v1/RegistryAuth';

export interface SaveImageRequest {
  'containerId'?: (string);
  'repository'?: (string);
  'tag'?: (string);
  'auth'?: (_gpucloud_agent_v1_RegistryAuth | null);
  'baseImage'?: (string);
  'description'?: (string);
}

export interface SaveImageRequest__Output {
  'containerId': (string);
  'repository': (string);
  'tag': (string);
  'auth': (_gpucloud_agent_v1_RegistryAuth__Output | null);
  'baseImage': (string);
  'description': (string);
}
