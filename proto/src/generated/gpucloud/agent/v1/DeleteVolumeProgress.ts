// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface DeleteVolumeProgress {
  'phase'?: (string);
  'filesDone'?: (number | string | Long);
  'filesTotal'?: (number | string | Long);
  'bytesDone'?: (number | string | Long);
  'bytesTotal'?: (number | string | Long);
  'done'?: (boolean);
  'deleted'?: (boolean);
}

export interface DeleteVolumeProgress__Output {
  'phase': (string);
  'filesDone': (string);
  'filesTotal': (string);
  'bytesDone': (string);
  'bytesTotal': (string);
  'done': (boolean);
  'deleted': (boolean);
}
