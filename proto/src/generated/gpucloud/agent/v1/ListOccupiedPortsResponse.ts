// Original file: agent/v1/agent.proto


export interface ListOccupiedPortsResponse {
  'ports'?: (number)[];
}

export interface ListOccupiedPortsResponse__Output {
  'ports': (number)[];
}
