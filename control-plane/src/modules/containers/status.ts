import type { ContainerInfo__Output } from '@gpucloud/proto';
import type { ContainerStatus } from './repository.js';

/**
 * How long a row a process works on stays with it without a renewal, unless configured
 * (LEASE_MS): a purchase being provisioned (provision_lease_until), a container being recreated
 * or started (ContainersService.whileHeld). The process renews it every quarter of it; where it
 * dies, the lease runs out and any replica takes the purchase over, or the node's reports settle
 * the container.
 */
export const DEFAULT_LEASE_MS = 60_000;

/** A purchase the node is still provisioning: no Docker container to report yet (or not ours to settle). */
export const PROVISIONING: ContainerStatus[] = ['creating', 'pulling'];
/** Running, or on its way to running: metered, stopped at a zero balance or at the end of its paid time. */
export const ACTIVE: ContainerStatus[] = ['running', 'starting'];
/** Holds nothing that runs: an hourly one is released 3 days after it came to this. */
export const HALTED: ContainerStatus[] = ['stopped', 'error', 'failed', 'not_found'];

/**
 * The platform status of what the agent reports. 运行中 means reachable: a container Docker runs
 * whose SSH server does not answer yet is still starting.
 */
export function statusFromAgent(
  info: Pick<ContainerInfo__Output, 'state' | 'startError' | 'reachable'>,
): ContainerStatus {
  switch (info.state) {
    case 'CONTAINER_STATE_RUNNING':
      return info.reachable ? 'running' : 'starting';
    case 'CONTAINER_STATE_RESTARTING':
      return 'starting';
    case 'CONTAINER_STATE_CREATED':
      return info.startError ? 'error' : 'stopped';
    case 'CONTAINER_STATE_PAUSED':
      // Only a commit pauses a container (保存镜像, a port or mount change), for a moment: it
      // keeps running, and keeps its GPUs, as far as the platform is concerned.
      return 'running';
    case 'CONTAINER_STATE_EXITED':
      return 'stopped';
    case 'CONTAINER_STATE_DEAD':
      return 'error';
    case 'CONTAINER_STATE_NOT_FOUND':
      return 'not_found';
    default:
      return 'error';
  }
}

/** What the node reports of a container besides its state (absent = not reported this time). */
export interface AgentFacts {
  jupyter?: string;
  /** 0 = not measured (the node limits the layer, or has not measured it yet). */
  writableLayerBytes?: number;
  writableLayerAllowanceBytes?: number;
}

/** What the node reports of a container besides its state. */
export function agentFacts(
  info: Pick<ContainerInfo__Output, 'jupyter' | 'writableLayerBytes' | 'writableLayerAllowanceBytes'>,
): AgentFacts {
  return {
    jupyter: info.jupyter,
    writableLayerBytes: Number(info.writableLayerBytes) || 0,
    writableLayerAllowanceBytes: Number(info.writableLayerAllowanceBytes) || 0,
  };
}
