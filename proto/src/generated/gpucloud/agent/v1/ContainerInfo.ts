// Original file: agent/v1/agent.proto

import type { ContainerState as _gpucloud_agent_v1_ContainerState, ContainerState__Output as _gpucloud_agent_v1_ContainerState__Output } from '../../../gpucloud/agent/v1/ContainerState';
import type { PortBinding as _gpucloud_agent_v1_PortBinding, PortBinding__Output as _gpucloud_agent_v1_PortBinding__Output } from '../../../gpucloud/agent/v1/PortBinding';
import type { Mount as _gpucloud_agent_v1_Mount, Mount__Output as _gpucloud_agent_v1_Mount__Output } from '../../../gpucloud/agent/v1/Mount';
import type { Resources as _gpucloud_agent_v1_Resources, Resources__Output as _gpucloud_agent_v1_Resources__Output } from '../../../gpucloud/agent/v1/Resources';
import type { Long } from '@grpc/proto-loader';

export interface ContainerInfo {
  'containerId'?: (string);
  'dockerId'?: (string);
  'ownerId'?: (string);
  'displayName'?: (string);
  'image'?: (string);
  'state'?: (_gpucloud_agent_v1_ContainerState);
  'statusText'?: (string);
  'exitCode'?: (number);
  'createdUnixMs'?: (number | string | Long);
  'startedUnixMs'?: (number | string | Long);
  'finishedUnixMs'?: (number | string | Long);
  'gpuDeviceIds'?: (string)[];
  'ports'?: (_gpucloud_agent_v1_PortBinding)[];
  'mounts'?: (_gpucloud_agent_v1_Mount)[];
  'labels'?: ({[key: string]: string});
  'startError'?: (string);
  'resources'?: (_gpucloud_agent_v1_Resources | null);
  'reachable'?: (boolean);
  'jupyter'?: (string);
  'writableLayerBytes'?: (number | string | Long);
  'writableLayerAllowanceBytes'?: (number | string | Long);
}

export interface ContainerInfo__Output {
  'containerId': (string);
  'dockerId': (string);
  'ownerId': (string);
  'displayName': (string);
  'image': (string);
  'state': (_gpucloud_agent_v1_ContainerState__Output);
  'statusText': (string);
  'exitCode': (number);
  'createdUnixMs': (string);
  'startedUnixMs': (string);
  'finishedUnixMs': (string);
  'gpuDeviceIds': (string)[];
  'ports': (_gpucloud_agent_v1_PortBinding__Output)[];
  'mounts': (_gpucloud_agent_v1_Mount__Output)[];
  'labels': ({[key: string]: string});
  'startError': (string);
  'resources': (_gpucloud_agent_v1_Resources__Output | null);
  'reachable': (boolean);
  'jupyter': (string);
  'writableLayerBytes': (string);
  'writableLayerAllowanceBytes': (string);
}
