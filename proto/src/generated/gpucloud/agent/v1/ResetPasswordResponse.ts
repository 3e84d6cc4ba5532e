// Original file: agent/v1/agent.proto


export interface ResetPasswordResponse {
  'password'?: (string);
}

export interface ResetPasswordResponse__Output {
  'password': (string);
}
