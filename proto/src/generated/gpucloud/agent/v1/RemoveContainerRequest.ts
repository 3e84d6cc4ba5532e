// Original file: agent/v1/agent.proto


export interface RemoveContainerRequest {
  'containerId'?: (string);
  'force'?: (boolean);
}

export interface RemoveContainerRequest__Output {
  'containerId': (string);
  'force': (boolean);
}
