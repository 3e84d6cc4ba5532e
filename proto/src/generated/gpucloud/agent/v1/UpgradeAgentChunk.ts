// Original file: agent/v1/agent.proto

import type { UpgradeAgentHeader as _gpucloud_agent_v1_UpgradeAgentHeader, UpgradeAgentHeader__Output as _gpucloud_agent_v1_UpgradeAgentHeader__Output } from '../../../gpucloud/agent/v1/UpgradeAgentHeader';

export interface UpgradeAgentChunk {
  'header'?: (_gpucloud_agent_v1_UpgradeAgentHeader | null);
  'chunk'?: (Buffer | Uint8Array | string);
  'part'?: "header"|"chunk";
}

export interface UpgradeAgentChunk__Output {
  'header'?: (_gpucloud_agent_v1_UpgradeAgentHeader__Output | null);
  'chunk'?: (Buffer);
  'part'?: "header"|"chunk";
}
