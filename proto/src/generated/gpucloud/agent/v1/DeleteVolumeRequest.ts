// Original file: agent/v1/agent.proto


export interface DeleteVolumeRequest {
  'ownerId'?: (string);
  'name'?: (string);
}

export interface DeleteVolumeRequest__Output {
  'ownerId': (string);
  'name': (string);
}
