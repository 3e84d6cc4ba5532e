// Original file: agent/v1/agent.proto


// Original file: agent/v1/agent.proto

export const _gpucloud_agent_v1_LogChunk_Stream = {
  STDOUT: 'STDOUT',
  STDERR: 'STDERR',
} as const;

export type _gpucloud_agent_v1_LogChunk_Stream =
  | 'STDOUT'
  | 0
  | 'STDERR'
  | 1

export type _gpucloud_agent_v1_LogChunk_Stream__Output = typeof _gpucloud_agent_v1_LogChunk_Stream[keyof typeof _gpucloud_agent_v1_LogChunk_Stream]

export interface LogChunk {
  'stream'?: (_gpucloud_agent_v1_LogChunk_Stream);
  'data'?: (Buffer | Uint8Array | string);
}

export interface LogChunk__Output {
  'stream': (_gpucloud_agent_v1_LogChunk_Stream__Output);
  'data': (Buffer);
}
