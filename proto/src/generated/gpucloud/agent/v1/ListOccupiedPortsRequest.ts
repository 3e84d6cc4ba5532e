// Original file: agent/v1/agent.proto


export interface ListOccupiedPortsRequest {
}

export interface ListOccupiedPortsRequest__Output {
}
