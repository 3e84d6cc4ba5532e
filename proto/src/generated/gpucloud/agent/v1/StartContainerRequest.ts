// Original file: agent/v1/agent.proto


export interface StartContainerRequest {
  'containerId'?: (string);
  'authorizedKeys'?: (string)[];
  'rootPassword'?: (string);
}

export interface StartContainerRequest__Output {
  'containerId': (string);
  'authorizedKeys': (string)[];
  'rootPassword': (string);
}
