// Original file: agent/v1/agent.proto

import type { ContainerInfo as _gpucloud_agent_v1_ContainerInfo, ContainerInfo__Output as _gpucloud_agent_v1_ContainerInfo__Output } from '../../../gpucloud/agent/v1/ContainerInfo';

export interface ListContainersResponse {
  'containers'?: (_gpucloud_agent_v1_ContainerInfo)[];
}

export interface ListContainersResponse__Output {
  'containers': (_gpucloud_agent_v1_ContainerInfo__Output)[];
}
