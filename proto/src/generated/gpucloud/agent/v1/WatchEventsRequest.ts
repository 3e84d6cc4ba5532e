// Original file: agent/v1/agent.proto


export interface WatchEventsRequest {
  'heartbeatIntervalMs'?: (number);
  'gpuSampleIntervalMs'?: (number);
}

export interface WatchEventsRequest__Output {
  'heartbeatIntervalMs': (number);
  'gpuSampleIntervalMs': (number);
}
