import type { ContainerInfo__Output } from '@gpucloud/proto';
import type { ContainerStatus } from './repository.js';

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
