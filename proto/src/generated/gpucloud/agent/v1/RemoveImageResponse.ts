// Original file: agent/v1/agent.proto


export interface RemoveImageResponse {
  'removed'?: (boolean);
}

export interface RemoveImageResponse__Output {
  'removed': (boolean);
}
