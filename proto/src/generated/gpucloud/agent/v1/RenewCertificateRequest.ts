// Original file: agent/v1/agent.proto


export interface RenewCertificateRequest {
}

export interface RenewCertificateRequest__Output {
}
