// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface StreamLogsRequest {
  'containerId'?: (string);
  'follow'?: (boolean);
  'tail'?: (number);
  'timestamps'?: (boolean);
  'sinceUnixMs'?: (number | string | Long);
}

export interface StreamLogsRequest__Output {
  'containerId': (string);
  'follow': (boolean);
  'tail': (number);
  'timestamps': (boolean);
  'sinceUnixMs': (string);
}
