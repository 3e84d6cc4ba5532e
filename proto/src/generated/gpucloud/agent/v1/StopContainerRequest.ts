// Original file: agent/v1/agent.proto


export interface StopContainerRequest {
  'containerId'?: (string);
  'timeoutSeconds'?: (number);
}

export interface StopContainerRequest__Output {
  'containerId': (string);
  'timeoutSeconds': (number);
}
