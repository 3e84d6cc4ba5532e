// Original file: agent/v1/agent.proto


export interface RenewCertificateResponse {
  'csrPem'?: (string);
}

export interface RenewCertificateResponse__Output {
  'csrPem': (string);
}
