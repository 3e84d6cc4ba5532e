// Original file: agent/v1/agent.proto

import type { ContainerState as _gpucloud_agent_v1_ContainerState, ContainerState__Output as _gpucloud_agent_v1_ContainerState__Output } from '../../../gpucloud/agent/v1/ContainerState';
import type { Long } from '@grpc/proto-loader';

export interface ContainerEvent {
  'containerId'?: (string);
  'action'?: (string);
  'state'?: (_gpucloud_agent_v1_ContainerState);
  'exitCode'?: (number);
  'timeUnixMs'?: (number | string | Long);
}

export interface ContainerEvent__Output {
  'containerId': (string);
  'action': (string);
  'state': (_gpucloud_agent_v1_ContainerState__Output);
  'exitCode': (number);
  'timeUnixMs': (string);
}
