// Original file: agent/v1/agent.proto


export interface ConsoleOpen {
  'containerId'?: (string);
  'command'?: (string)[];
  'cols'?: (number);
  'rows'?: (number);
}

export interface ConsoleOpen__Output {
  'containerId': (string);
  'command': (string)[];
  'cols': (number);
  'rows': (number);
}
