// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface UpgradeAgentHeader {
  'version'?: (string);
  'build'?: (string);
  'sizeBytes'?: (number | string | Long);
  'sha256'?: (string);
}

export interface UpgradeAgentHeader__Output {
  'version': (string);
  'build': (string);
  'sizeBytes': (string);
  'sha256': (string);
}
