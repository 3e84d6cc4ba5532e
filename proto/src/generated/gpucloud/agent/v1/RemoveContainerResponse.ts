// Original file: agent/v1/agent.proto


export interface RemoveContainerResponse {
  'removed'?: (boolean);
}

export interface RemoveContainerResponse__Output {
  'removed': (boolean);
}
