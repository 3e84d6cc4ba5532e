// What a GPU's reported facts mean for selling it and for whoever holds it, and where a rental of
// several GPUs goes on the node (NVLink domain, then NUMA node, then lowest indices). Pure
// functions over the nodes module's rows: the allocator (containers module) and the views use them.
import type { NodeGpuRow, NodeRow } from './model.js';

export type GpuState = 'ok' | 'unhealthy' | 'missing' | 'mig' | 'fabric';

/** Fabric states in which a GPU may be used: not reported (no NVSwitch), or Completed (HGX). */
const FABRIC_READY = new Set(['', 'Completed']);

type StateFacts = Pick<NodeGpuRow, 'missing_since' | 'health_problem' | 'mig_enabled' | 'fabric_state'>;

/** The first reason a GPU cannot be used, in this order; 'ok' when there is none. */
export function gpuState(g: StateFacts): GpuState {
  if (g.missing_since) return 'missing';
  if (g.health_problem) return 'unhealthy';
  if (g.mig_enabled) return 'mig';
  if (!FABRIC_READY.has(g.fabric_state)) return 'fabric';
  return 'ok';
}

/** Why the GPU cannot be used, for its holder (Chinese); null when it can. */
export function gpuProblemText(
  g: StateFacts & Pick<NodeGpuRow, 'gpu_index' | 'pci_bus_id' | 'uuid'>,
): string | null {
  const name = g.gpu_index >= 0 ? `GPU ${g.gpu_index}` : `GPU ${g.uuid}`;
  const withBus = g.pci_bus_id ? `${name} (${g.pci_bus_id})` : name;
  switch (gpuState(g)) {
    case 'missing':
      return `${name} 已从节点消失`;
    case 'unhealthy':
      return `${withBus} 故障: ${g.health_problem}`;
    case 'mig':
      return `${withBus} 已开启 MIG 模式，暂不可用`;
    case 'fabric':
      return `${withBus} 的 NVLink Fabric 未就绪（${g.fabric_state}），暂不可用`;
    default:
      return null;
  }
}

/** Non-empty when nvidia-smi failed as a whole on the node: its GPU rows are then not current. */
export function gpuProbeErrorOf(node: Pick<NodeRow, 'host_info'>): string {
  const value = node.host_info?.gpuProbeError;
  return typeof value === 'string' ? value : '';
}

/**
 * The GPUs that may be rented now: present, healthy, not MIG, fabric ready, not held by anyone,
 * on a node whose GPUs could be read. Lowest index first.
 */
export function sellableGpus<G extends NodeGpuRow>(
  node: Pick<NodeRow, 'host_info'>,
  gpus: G[],
  allocated: Set<string>,
): G[] {
  if (gpuProbeErrorOf(node)) return [];
  return gpus
    .filter((g) => gpuState(g) === 'ok' && !allocated.has(g.uuid))
    .sort((a, b) => a.gpu_index - b.gpu_index || a.uuid.localeCompare(b.uuid));
}

/** Groups of GPUs joined over NVLink (connected components of nvlink_peers), each lowest index first. */
export function nvlinkDomains<G extends Pick<NodeGpuRow, 'uuid' | 'nvlink_peers' | 'gpu_index'>>(
  gpus: G[],
): G[][] {
  const byUuid = new Map(gpus.map((g) => [g.uuid, g]));
  const parent = new Map(gpus.map((g) => [g.uuid, g.uuid]));
  const find = (u: string): string => {
    let root = u;
    while (parent.get(root) !== root) root = parent.get(root) as string;
    parent.set(u, root);
    return root;
  };
  for (const g of gpus) {
    for (const peer of g.nvlink_peers ?? []) {
      if (!byUuid.has(peer)) continue;
      const a = find(g.uuid);
      const b = find(peer);
      if (a === b) continue;
      // The smaller UUID roots the merged group (any order of the peers gives the same groups).
      const [root, child] = a < b ? [a, b] : [b, a];
      parent.set(child, root);
    }
  }
  const groups = new Map<string, G[]>();
  for (const g of gpus) {
    const root = find(g.uuid);
    groups.set(root, [...(groups.get(root) ?? []), g]);
  }
  return [...groups.values()].map((list) => list.sort((a, b) => a.gpu_index - b.gpu_index));
}

/**
 * Chooses `count` of the free GPUs (lowest index first). One GPU: the lowest index. Several:
 * inside one NVLink domain when one has that many free, else inside one NUMA node, else the
 * lowest indices. Of the domains (or NUMA nodes) that fit, the one with the fewest free GPUs
 * goes first (larger groups stay whole for larger rentals), then the lowest index. Deterministic.
 * Undefined when fewer than `count` are free.
 */
export function placeGpus<G extends NodeGpuRow>(
  free: G[],
  count: number,
  all: NodeGpuRow[] = free,
): G[] | undefined {
  if (free.length < count) return undefined;
  free = [...free].sort((a, b) => a.gpu_index - b.gpu_index || a.uuid.localeCompare(b.uuid));
  if (count <= 1) return free.slice(0, count);
  const freeByUuid = new Map(free.map((g) => [g.uuid, g]));
  const bestFit = (groups: G[][]): G[] | undefined => {
    const fitting = groups
      .filter((group) => group.length >= count)
      .sort((a, b) => a.length - b.length || (a[0]?.gpu_index ?? 0) - (b[0]?.gpu_index ?? 0));
    return fitting[0]?.slice(0, count);
  };
  // Domains are read over every GPU of the node (a held GPU still links its neighbours).
  const domains = nvlinkDomains(all)
    .filter((d) => d.length > 1)
    .map((d) => d.flatMap((g) => (freeByUuid.has(g.uuid) ? [freeByUuid.get(g.uuid) as G] : [])));
  const inDomain = bestFit(domains);
  if (inDomain) return inDomain;
  const numa = new Map<number, G[]>();
  for (const g of free) {
    if (g.numa_node < 0) continue;
    numa.set(g.numa_node, [...(numa.get(g.numa_node) ?? []), g]);
  }
  const inNuma = bestFit([...numa.values()]);
  if (inNuma) return inNuma;
  return free.slice(0, count);
}
