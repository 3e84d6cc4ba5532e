// Original file: agent/v1/agent.proto

import type { Long } from '@grpc/proto-loader';

export interface InstallCertificateResponse {
  'expiresUnixMs'?: (number | string | Long);
}

export interface InstallCertificateResponse__Output {
  'expiresUnixMs': (string);
}
