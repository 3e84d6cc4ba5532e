// Original file: agent/v1/agent.proto

import type { Protocol as _gpucloud_agent_v1_Protocol, Protocol__Output as _gpucloud_agent_v1_Protocol__Output } from '../../../gpucloud/agent/v1/Protocol';

export interface PortBinding {
  'containerPort'?: (number);
  'hostPort'?: (number);
  'protocol'?: (_gpucloud_agent_v1_Protocol);
  'hostIp'?: (string);
  'name'?: (string);
}

export interface PortBinding__Output {
  'containerPort': (number);
  'hostPort': (number);
  'protocol': (_gpucloud_agent_v1_Protocol__Output);
  'hostIp': (string);
  'name': (string);
}
