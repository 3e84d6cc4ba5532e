// Original file: agent/v1/agent.proto

import type { ContainerSpec as _gpucloud_agent_v1_ContainerSpec, ContainerSpec__Output as _gpucloud_agent_v1_ContainerSpec__Output } from '../../../gpucloud/agent/v1/ContainerSpec';
import type { RegistryAuth as _gpucloud_agent_v1_RegistryAuth, RegistryAuth__Output as _gpucloud_agent_v1_RegistryAuth__Output } from '../../../gpucloud/agent/v1/RegistryAuth';

export interface CreateContainerRequest {
  'spec'?: (_gpucloud_agent_v1_ContainerSpec | null);
  'rootPassword'?: (string);
  'authorizedKeys'?: (string)[];
  'start'?: (boolean);
  'registryAuth'?: (_gpucloud_agent_v1_RegistryAuth | null);
}

export interface CreateContainerRequest__Output {
  'spec': (_gpucloud_agent_v1_ContainerSpec__Output | null);
  'rootPassword': (string);
  'authorizedKeys': (string)[];
  'start': (boolean);
  'registryAuth': (_gpucloud_agent_v1_RegistryAuth__Output | null);
}
