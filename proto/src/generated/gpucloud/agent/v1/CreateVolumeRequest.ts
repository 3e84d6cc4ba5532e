// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateVolumeRequest {
  'ownerId'?: (string);
  'name'?: (string);
  'quotaBytes'?: (number | string | Long);
}

export interface CreateVolumeRequest__Output {
  'ownerId': (string);
  'name': (string);
  'quotaBytes': (string);
}
