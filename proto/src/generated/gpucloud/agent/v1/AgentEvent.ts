// Original file: agent/v1/agent.proto

import type { Heartbeat as _gpucloud_agent_v1_Heartbeat, Heartbeat__Output as _gpucloud_agent_v1_Heartbeat__Output } from '../../../gpucloud/agent/v1/Heartbeat';
import type { ContainerEvent as _gpucloud_agent_v1_ContainerEvent, ContainerEvent__Output as _gpucloud_agent_v1_ContainerEvent__Output } from '../../../gpucloud/agent/v1/ContainerEvent';
import type { GpuSample as _gpucloud_agent_v1_GpuSample, GpuSample__Output as _gpucloud_agent_v1_GpuSample__Output } from '../../../gpucloud/agent/v1/GpuSample';
import type { ReconcileReport as _gpucloud_agent_v1_ReconcileReport, ReconcileReport__Output as _gpucloud_agent_v1_ReconcileReport__Output } from '../../../gpucloud/agent/v1/ReconcileReport';

export interface AgentEvent {
  'heartbeat'?: (_gpucloud_agent_v1_Heartbeat | null);
  'container'?: (_gpucloud_agent_v1_ContainerEvent | null);
  'gpuSample'?: (_gpucloud_agent_v1_GpuSample | null);
  'reconcile'?: (_gpucloud_agent_v1_ReconcileReport | null);
  'event'?: "heartbeat"|"container"|"gpuSample"|"reconcile";
}

export interface AgentEvent__Output {
  'heartbeat'?: (_gpucloud_agent_v1_Heartbeat__Output | null);
  'container'?: (_gpucloud_agent_v1_ContainerEvent__Output | null);
  'gpuSample'?: (_gpucloud_agent_v1_GpuSample__Output | null);
  'reconcile'?: (_gpucloud_agent_v1_ReconcileReport__Output | null);
  'event'?: "heartbeat"|"container"|"gpuSample"|"reconcile";
}
