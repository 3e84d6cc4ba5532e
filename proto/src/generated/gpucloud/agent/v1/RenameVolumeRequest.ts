// Original file: agent/v1/agent.proto


export interface RenameVolumeRequest {
  'ownerId'?: (string);
  'name'?: (string);
  'newName'?: (string);
}

export interface RenameVolumeRequest__Output {
  'ownerId': (string);
  'name': (string);
  'newName': (string);
}
