// Original file: agent/v1/agent.proto


export interface ConsoleOutput {
  'data'?: (Buffer | Uint8Array | string);
  'exitCode'?: (number);
  'output'?: "data"|"exitCode";
}

export interface ConsoleOutput__Output {
  'data'?: (Buffer);
  'exitCode'?: (number);
  'output'?: "data"|"exitCode";
}
