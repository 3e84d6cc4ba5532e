// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface Resources {
  'memoryBytes'?: (number | string | Long);
  'nanoCpus'?: (number | string | Long);
  'pidsLimit'?: (number | string | Long);
  'shmSizeBytes'?: (number | string | Long);
}

export interface Resources__Output {
  'memoryBytes': (string);
  'nanoCpus': (string);
  'pidsLimit': (string);
  'shmSizeBytes': (string);
}
