// Original file: agent/v1/agent.proto


export interface UpgradeAgentResponse {
  'version'?: (string);
  'build'?: (string);
}

export interface UpgradeAgentResponse__Output {
  'version': (string);
  'build': (string);
}
