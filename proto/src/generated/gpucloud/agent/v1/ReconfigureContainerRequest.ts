// Original file: agent/v1/agent.proto

import type { PortBinding as _gpucloud_agent_v1_PortBinding, PortBinding__Output as _gpucloud_agent_v1_PortBinding__Output } from '../../../gpucloud/agent/v1/PortBinding';
import type { Mount as _gpucloud_agent_v1_Mount, Mount__Output as _gpucloud_agent_v1_Mount__Output } from '../../../gpucloud/agent/v1/Mount';

export interface ReconfigureContainerRequest {
  'containerId'?: (string);
  'setPorts'?: (boolean);
  'ports'?: (_gpucloud_agent_v1_PortBinding)[];
  'setMounts'?: (boolean);
  'mounts'?: (_gpucloud_agent_v1_Mount)[];
  'setGpus'?: (boolean);
  'gpuDeviceIds'?: (string)[];
  'restartIfRunning'?: (boolean);
  'authorizedKeys'?: (string)[];
}

export interface ReconfigureContainerRequest__Output {
  'containerId': (string);
  'setPorts': (boolean);
  'ports': (_gpucloud_agent_v1_PortBinding__Output)[];
  'setMounts': (boolean);
  'mounts': (_gpucloud_agent_v1_Mount__Output)[];
  'setGpus': (boolean);
  'gpuDeviceIds': (string)[];
  'restartIfRunning': (boolean);
  'authorizedKeys': (string)[];
}
