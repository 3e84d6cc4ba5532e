// Original file: agent/v1/agent.proto


export interface ListContainersRequest {
  'all'?: (boolean);
  'ownerId'?: (string);
}

export interface ListContainersRequest__Output {
  'all': (boolean);
  'ownerId': (string);
}
