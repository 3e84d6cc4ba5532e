// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface ImageSummary {
  'tags'?: (string)[];
  'imageId'?: (string);
  'sizeBytes'?: (number | string | Long);
  'createdUnix'?: (number | string | Long);
}

export interface ImageSummary__Output {
  'tags': (string)[];
  'imageId': (string);
  'sizeBytes': (string);
  'createdUnix': (string);
}
