// Original file: agent/v1/agent.proto


export interface DeleteVolumeResponse {
  'deleted'?: (boolean);
}

export interface DeleteVolumeResponse__Output {
  'deleted': (boolean);
}
