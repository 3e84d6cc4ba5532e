// Original file: agent/v1/agent.proto


export interface RegistryAuth {
  'serverAddress'?: (string);
  'username'?: (string);
  'password'?: (string);
}

export interface RegistryAuth__Output {
  'serverAddress': (string);
  'username': (string);
  'password': (string);
}
