// Original file: agent/v1/agent.proto


export interface InstallCertificateRequest {
  'certificatePem'?: (string);
  'caCertificatePem'?: (string);
}

export interface InstallCertificateRequest__Output {
  'certificatePem': (string);
  'caCertificatePem': (string);
}
