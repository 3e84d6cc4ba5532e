// Original file: agent/v1/agent.proto


export interface ContainerRef {
  'containerId'?: (string);
}

export interface ContainerRef__Output {
  'containerId': (string);
}
