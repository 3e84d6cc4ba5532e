// Original file: agent/v1/agent.proto

import type { Volume as _gpucloud_agent_v1_Volume, Volume__Output as _gpucloud_agent_v1_Volume__Output } from '../../../gpucloud/agent/v1/Volume';

export interface ListVolumesResponse {
  'volumes'?: (_gpucloud_agent_v1_Volume)[];
}

export interface ListVolumesResponse__Output {
  'volumes': (_gpucloud_agent_v1_Volume__Output)[];
}
