// Original file: agent/v1/agent.proto

import type { PortBinding as _gpucloud_agent_v1_PortBinding, PortBinding__Output as _gpucloud_agent_v1_PortBinding__Output } from '../../../gpucloud/agent/v1/PortBinding';
import type { Mount as _gpucloud_agent_v1_Mount, Mount__Output as _gpucloud_agent_v1_Mount__Output } from '../../../gpucloud/agent/v1/Mount';
import type { Resources as _gpucloud_agent_v1_Resources, Resources__Output as _gpucloud_agent_v1_Resources__Output } from '../../../gpucloud/agent/v1/Resources';

export interface ContainerSpec {
  'containerId'?: (string);
  'ownerId'?: (string);
  'ownerName'?: (string);
  'displayName'?: (string);
  'image'?: (string);
  'gpuDeviceIds'?: (string)[];
  'ports'?: (_gpucloud_agent_v1_PortBinding)[];
  'mounts'?: (_gpucloud_agent_v1_Mount)[];
  'resources'?: (_gpucloud_agent_v1_Resources | null);
  'env'?: ({[key: string]: string});
  'labels'?: ({[key: string]: string});
  'command'?: (string)[];
  'extraDriverCapabilities'?: (string)[];
}

export interface ContainerSpec__Output {
  'containerId': (string);
  'ownerId': (string);
  'ownerName': (string);
  'displayName': (string);
  'image': (string);
  'gpuDeviceIds': (string)[];
  'ports': (_gpucloud_agent_v1_PortBinding__Output)[];
  'mounts': (_gpucloud_agent_v1_Mount__Output)[];
  'resources': (_gpucloud_agent_v1_Resources__Output | null);
  'env': ({[key: string]: string});
  'labels': ({[key: string]: string});
  'command': (string)[];
  'extraDriverCapabilities': (string)[];
}
