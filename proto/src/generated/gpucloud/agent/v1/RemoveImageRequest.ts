// Original file: agent/v1/agent.proto


export interface RemoveImageRequest {
  'image'?: (string);
}

export interface RemoveImageRequest__Output {
  'image': (string);
}
