import type { ContainerInfo__Output } from '@gpucloud/proto';
import type { ContainerStatus, PortMapping } from './repository.js';
import { PROVISIONING } from './status.js';

// Docker is the truth for what a container holds. A change cut off half-way (the control plane
// killed, or its call timed out, while the node recreated the container) can leave the row with
// the ports or GPUs of before while Docker holds those of after, or the reverse: the node's
// report then settles the row. This module decides what to adopt; ContainersService applies it.

/** What a row records of a container's allocations (the row and its reservations). */
export interface RecordedAllocations {
  id: string;
  status: ContainerStatus;
  /** A status set by an action: later than a report's observation = the action holds the row. */
  status_changed_at: Date | null;
  ports: PortMapping[];
  gpu_devices: string[];
  /** Host ports reserved for it. */
  reserved_ports: number[];
  /** GPUs allocated to it, by UUID. */
  gpu_uuids: string[];
}

/** What the row must take from the node's report; absent fields stay as they are. */
export interface Adoption {
  ports?: PortMapping[];
  gpus?: { uuids: string[]; devices: string[] };
}

function sameSet<T>(a: T[], b: T[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((x) => right.has(x));
}

/**
 * A row the report may change: not one a purchase still makes, an ended one, or one an action
 * holds or changed after the observation (in the same millisecond counts as before).
 */
export function reportApplies(
  row: Pick<RecordedAllocations, 'status' | 'status_changed_at'>,
  observedAt: Date,
) {
  if (row.status === 'deleted' || row.status === 'failed' || PROVISIONING.includes(row.status)) return false;
  return !row.status_changed_at || row.status_changed_at <= observedAt;
}

/**
 * What the row must adopt from the node's report of the container, or null when they agree.
 * Ports: the host ports Docker binds, whatever the state (a stopped container keeps them). GPUs:
 * only while it runs (a stopped hourly container's config still names GPUs it gave back); ids
 * are UUIDs, or indices for containers made before GPUs were named by UUID.
 */
export function adoptionFor(
  row: RecordedAllocations,
  info: Pick<ContainerInfo__Output, 'state' | 'ports' | 'gpuDeviceIds'>,
  nodeGpus: { uuid: string; gpu_index: number }[],
): Adoption | null {
  const adoption: Adoption = {};
  const bound = new Map<number, PortMapping>();
  for (const p of info.ports) {
    if (!p.hostPort || bound.has(p.hostPort)) continue;
    const known = row.ports.find((r) => r.host_port === p.hostPort && r.container_port === p.containerPort);
    bound.set(
      p.hostPort,
      known ?? {
        name: p.name || 'custom',
        container_port: p.containerPort,
        host_port: p.hostPort,
        custom: !p.name || p.name === 'custom',
      },
    );
  }
  const hostPorts = [...bound.keys()];
  if (
    !sameSet(hostPorts, row.reserved_ports) ||
    !sameSet(
      hostPorts,
      row.ports.map((p) => p.host_port),
    )
  ) {
    adoption.ports = [...bound.values()].sort((a, b) => a.host_port - b.host_port);
  }

  const running = info.state === 'CONTAINER_STATE_RUNNING' || info.state === 'CONTAINER_STATE_RESTARTING';
  if (running) {
    const byUuid = new Set(nodeGpus.map((g) => g.uuid));
    const byIndex = new Map(nodeGpus.map((g) => [String(g.gpu_index), g.uuid]));
    const uuids = info.gpuDeviceIds.map((id) => (byUuid.has(id) ? id : byIndex.get(id)));
    // A GPU the node no longer lists cannot be recorded: the GPU checks report it, not this.
    const known = uuids.every((u): u is string => u !== undefined);
    if (known && !sameSet(uuids, row.gpu_uuids)) {
      adoption.gpus = { uuids, devices: [...info.gpuDeviceIds] };
    }
  }
  return adoption.ports || adoption.gpus ? adoption : null;
}
