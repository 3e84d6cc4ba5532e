// Original file: agent/v1/agent.proto

import type { ConsoleOpen as _gpucloud_agent_v1_ConsoleOpen, ConsoleOpen__Output as _gpucloud_agent_v1_ConsoleOpen__Output } from '../../../gpucloud/agent/v1/ConsoleOpen';
import type { ConsoleResize as _gpucloud_agent_v1_ConsoleResize, ConsoleResize__Output as _gpucloud_agent_v1_ConsoleResize__Output } from '../../../gpucloud/agent/v1/ConsoleResize';

export interface ConsoleInput {
  'open'?: (_gpucloud_agent_v1_ConsoleOpen | null);
  'stdin'?: (Buffer | Uint8Array | string);
  'resize'?: (_gpucloud_agent_v1_ConsoleResize | null);
  'interrupt'?: (boolean);
  'input'?: "open"|"stdin"|"resize"|"interrupt";
}

export interface ConsoleInput__Output {
  'open'?: (_gpucloud_agent_v1_ConsoleOpen__Output | null);
  'stdin'?: (Buffer);
  'resize'?: (_gpucloud_agent_v1_ConsoleResize__Output | null);
  'interrupt'?: (boolean);
  'input'?: "open"|"stdin"|"resize"|"interrupt";
}
