// Original file: agent/v1/agent.proto


export interface ListVolumesRequest {
  'ownerId'?: (string);
}

export interface ListVolumesRequest__Output {
  'ownerId': (string);
}
