// Original file: agent/v1/agent.proto


export interface Mount {
  'volumeName'?: (string);
  'target'?: (string);
  'readOnly'?: (boolean);
}

export interface Mount__Output {
  'volumeName': (string);
  'target': (string);
  'readOnly': (boolean);
}
