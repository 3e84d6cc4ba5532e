// Original file: agent/v1/agent.proto


export interface ConsoleResize {
  'cols'?: (number);
  'rows'?: (number);
}

export interface ConsoleResize__Output {
  'cols': (number);
  'rows': (number);
}
