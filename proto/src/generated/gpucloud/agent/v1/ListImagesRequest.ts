// Original file: agent/v1/agent.proto


export interface ListImagesRequest {
}

export interface ListImagesRequest__Output {
}
