// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface Volume {
  'ownerId'?: (string);
  'name'?: (string);
  'hostPath'?: (string);
  'sizeBytes'?: (number | string | Long);
  'createdUnixMs'?: (number | string | Long);
}

export interface Volume__Output {
  'ownerId': (string);
  'name': (string);
  'hostPath': (string);
  'sizeBytes': (string);
  'createdUnixMs': (string);
}
