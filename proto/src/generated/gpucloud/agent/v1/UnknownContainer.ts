// Original file: agent/v1/agent.proto

import type { ContainerState as _gpucloud_agent_v1_ContainerState, ContainerState__Output as _gpucloud_agent_v1_ContainerState__Output } from '../../../gpucloud/agent/v1/ContainerState';

export interface UnknownContainer {
  'containerId'?: (string);
  'dockerId'?: (string);
  'ownerId'?: (string);
  'state'?: (_gpucloud_agent_v1_ContainerState);
}

export interface UnknownContainer__Output {
  'containerId': (string);
  'dockerId': (string);
  'ownerId': (string);
  'state': (_gpucloud_agent_v1_ContainerState__Output);
}
