// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface PullImageProgress {
  'id'?: (string);
  'status'?: (string);
  'current'?: (number | string | Long);
  'total'?: (number | string | Long);
  'done'?: (boolean);
}

export interface PullImageProgress__Output {
  'id': (string);
  'status': (string);
  'current': (string);
  'total': (string);
  'done': (boolean);
}
