// Original file: agent/v1/agent.proto

export const Protocol = {
  PROTOCOL_TCP: 'PROTOCOL_TCP',
  PROTOCOL_UDP: 'PROTOCOL_UDP',
} as const;

export type Protocol =
  | 'PROTOCOL_TCP'
  | 0
  | 'PROTOCOL_UDP'
  | 1

export type Protocol__Output = typeof Protocol[keyof typeof Protocol]
