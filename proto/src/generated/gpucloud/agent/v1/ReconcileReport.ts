// Original file: agent/v1/agent.proto

import type { ContainerInfo as _gpucloud_agent_v1_ContainerInfo, ContainerInfo__Output as _gpucloud_agent_v1_ContainerInfo__Output } from '../../../gpucloud/agent/v1/ContainerInfo';
import type { Long } from '@grpc/proto-loader';

export interface ReconcileReport {
  'timeUnixMs'?: (number | string | Long);
  'containers'?: (_gpucloud_agent_v1_ContainerInfo)[];
}

export interface ReconcileReport__Output {
  'timeUnixMs': (string);
  'containers': (_gpucloud_agent_v1_ContainerInfo__Output)[];
}
