// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface SaveImageProgress {
  'phase'?: (string);
  'percent'?: (number);
  'bytesDone'?: (number | string | Long);
  'bytesTotal'?: (number | string | Long);
  'done'?: (boolean);
  'digest'?: (string);
  'sizeBytes'?: (number | string | Long);
  'contentsJson'?: (string);
}

export interface SaveImageProgress__Output {
  'phase': (string);
  'percent': (number);
  'bytesDone': (string);
  'bytesTotal': (string);
  'done': (boolean);
  'digest': (string);
  'sizeBytes': (string);
  'contentsJson': (string);
}
