// Original file: agent/v1/agent.proto


export interface ResetPasswordRequest {
  'containerId'?: (string);
  'password'?: (string);
}

export interface ResetPasswordRequest__Output {
  'containerId': (string);
  'password': (string);
}
