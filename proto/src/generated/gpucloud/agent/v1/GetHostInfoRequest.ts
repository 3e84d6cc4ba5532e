// Original file: agent/v1/agent.proto


export interface GetHostInfoRequest {
}

export interface GetHostInfoRequest__Output {
}
