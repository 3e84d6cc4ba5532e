// Original file: agent/v1/agent.proto


export interface VolumeRef {
  'ownerId'?: (string);
  'name'?: (string);
}

export interface VolumeRef__Output {
  'ownerId': (string);
  'name': (string);
}
