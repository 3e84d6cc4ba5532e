// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface Heartbeat {
  'timeUnixMs'?: (number | string | Long);
  'dockerAvailable'?: (boolean);
  'runningContainers'?: (number);
}

export interface Heartbeat__Output {
  'timeUnixMs': (string);
  'dockerAvailable': (boolean);
  'runningContainers': (number);
}
