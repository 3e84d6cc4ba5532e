import type { ContainerInfo__Output, GpuSample__Output, HostInfo__Output } from '@gpucloud/proto';
import type { Knex } from 'knex';
import { AgentCallError } from '../../agents/agent-client.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import { isUniqueViolation } from '../../framework/db-errors.js';
import { AppError, conflict, notFound } from '../../framework/errors.js';
import type { GpuMetricsReply, NodeReply } from './contract.js';
import { gpuProbeErrorOf, gpuState, sellableGpus } from './gpus.js';
import { HeartbeatBatcher, TickBatch } from './heartbeats.js';
import type {
  GpuMetric,
  GpuTransition,
  NodeFacts,
  NodeGpuRow,
  NodeRow,
  NodeSummary,
  NodesRepository,
  ReportedGpu,
  UnknownContainer,
} from './repository.js';

/** A GPU a container holds (gpu_allocations, the containers module's). */
export interface HeldGpu {
  node_id: number;
  gpu_uuid: string;
  container_id: string;
}

/** What the nodes module needs to know about containers (owned by the containers module). */
export interface NodeUsage {
  /** The GPUs held on these nodes (by UUID), with the container holding each. */
  heldGpus(nodeIds: number[]): Promise<HeldGpu[]>;
  activeContainerCount(nodeId: number): Promise<number>;
  /** Storage volumes kept on the node (they live in its directories). */
  volumeCount?(nodeId: number): Promise<number>;
}

/** A node as the admin console reads it (the shape lives in contract.ts). */
export type NodeView = NodeReply;

export type GpuMetrics = GpuMetricsReply;

/** Samples are kept per bucket of this size: replicas following one node write each bucket once. */
export const GPU_SAMPLE_BUCKET_MS = 15_000;
const GPU_SAMPLE_RETENTION_MS = 24 * 3600_000;

export interface AddNodeParams {
  name: string;
  address: string;
  token: string;
  region: string;
  publicHost?: string | undefined;
}

const PROBE_TIMEOUT_MS = 5000;
/** A GPU missing this long that nobody holds is forgotten (the node view shows it until then). */
const MISSING_GPU_RETENTION_MS = 7 * 24 * 3600_000;

/** A node's facts as a report gives them: without GPU model and count when its GPUs could not be read. */
export type ReportedFacts = Omit<NodeFacts, 'gpu_model' | 'gpu_total'> &
  Partial<Pick<NodeFacts, 'gpu_model' | 'gpu_total'>>;

/**
 * What the host reported, as rows. When nvidia-smi failed as a whole (`gpuProbeError`) the GPU
 * list is not current: `gpus` is undefined and the GPU facts (model, count) are left out, so
 * the stored ones stay.
 */
export function factsFromHostInfo(info: HostInfo__Output): {
  facts: ReportedFacts;
  gpus: ReportedGpu[] | undefined;
} {
  const probeFailed = Boolean(info.gpuProbeError);
  const gpus = info.gpus.map((g) => ({
    gpu_index: g.index,
    uuid: g.uuid,
    model: g.model,
    memory_total_mib: Number(g.memoryTotalMib),
    pci_bus_id: g.pciBusId ?? '',
    health_problem: g.healthProblem ?? '',
    persistence_mode: Boolean(g.persistenceMode),
    mig_enabled: Boolean(g.migEnabled),
    fabric_state: g.fabricState ?? '',
    numa_node: typeof g.numaNode === 'number' ? g.numaNode : -1,
    nvlink_peers: [...(g.nvlinkPeers ?? [])],
  }));
  const facts: NodeFacts = {
    host_info: { ...info, gpus: undefined } as unknown as Record<string, unknown>,
    docker_available: info.dockerAvailable,
    docker_error: info.dockerError || null,
    simulated: info.simulated,
    gpu_model: gpus[0]?.model ?? null,
    gpu_total: gpus.length,
    port_range_start: info.portRangeStart || 20000,
    port_range_end: info.portRangeEnd || 29999,
    // Unsafe is the agent's word on the host (the container toolkit), never one sick GPU.
    status: info.unsafeReason ? 'unsafe' : 'online',
  };
  if (!probeFailed) return { facts, gpus };
  const { gpu_model: _model, gpu_total: _total, ...rest } = facts;
  return { facts: rest, gpus: undefined };
}

/** The host users connect to: the configured public host, else the agent's, else the address host. */
export function publicHostOf(node: Pick<NodeRow, 'public_host' | 'address' | 'host_info'>): string {
  if (node.public_host) return node.public_host;
  const reported = node.host_info?.publicHost;
  if (typeof reported === 'string' && reported) return reported;
  return node.address.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
}

/**
 * host_info keys that change all the time without mattering at once (disk space): a refresh that
 * finds only these changed writes them with the node's next heartbeat, not on their own.
 */
const VOLATILE_HOST_INFO = ['diskFreeBytes', 'diskTotalBytes'] as const;

export class NodesService {
  /** Heartbeats are written per tick, all nodes in one statement (see heartbeats.ts). */
  private readonly heartbeats: HeartbeatBatcher;
  /** GPU samples too: the fleet's agents sample together (they were connected together). */
  private readonly samples: TickBatch<{ nodeId: number; bucket: Date; gpus: GpuMetric[] }>;

  constructor(
    private readonly repo: NodesRepository,
    private readonly agents: AgentPool,
    private readonly usage: NodeUsage,
    options: { heartbeatTickMs?: number } = {},
  ) {
    this.heartbeats = new HeartbeatBatcher(
      async (writes) => void (await this.repo.writeHeartbeats(writes)),
      options.heartbeatTickMs,
    );
    this.samples = new TickBatch((items) => this.repo.insertGpuSamples(items), options.heartbeatTickMs);
  }

  private async probe(params: { address: string; token: string }): Promise<HostInfo__Output> {
    const client = this.agents.transient({ address: params.address, token: params.token });
    try {
      return await client.getHostInfo(PROBE_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof AgentCallError && err.code === 16 /* UNAUTHENTICATED */) {
        throw new AppError(502, 'NODE_TOKEN_REJECTED', '节点拒绝了令牌，请检查节点令牌');
      }
      throw new AppError(502, 'NODE_UNREACHABLE', `无法连接节点 ${params.address}`);
    } finally {
      client.close();
    }
  }

  async add(params: AddNodeParams): Promise<NodeView> {
    if (await this.repo.findByName(params.name)) throw conflict('节点名称已存在', 'NODE_NAME_TAKEN');
    const info = await this.probe(params);
    const { facts, gpus } = factsFromHostInfo(info);
    try {
      const row = await this.repo.insert(
        {
          name: params.name,
          address: params.address,
          token: params.token,
          region: params.region,
          public_host: params.publicHost ?? null,
          ...facts,
        },
        gpus,
      );
      return this.view(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('节点名称已存在', 'NODE_NAME_TAKEN');
      throw err;
    }
  }

  /** Registers or updates a node by name (the local agent of `npm start`). */
  async upsert(params: AddNodeParams): Promise<NodeRow> {
    const info = await this.probe(params);
    const { facts, gpus } = factsFromHostInfo(info);
    const existing = await this.repo.findByName(params.name);
    if (existing) {
      // What it held before stays; new facts on top.
      await this.repo.update(
        existing.id,
        {
          address: params.address,
          token: params.token,
          region: params.region,
          public_host: params.publicHost ?? null,
          ...facts,
        },
        gpus,
      );
      return (await this.repo.findById(existing.id)) as NodeRow;
    }
    return this.repo.insert(
      {
        name: params.name,
        address: params.address,
        token: params.token,
        region: params.region,
        public_host: params.publicHost ?? null,
        ...facts,
      },
      gpus,
    );
  }

  /**
   * Reads the host again and stores what it reports (GPUs by UUID: see NodesRepository.update).
   * Returns the GPUs that became unusable now (their holders are told by the node monitor).
   */
  async refresh(node: NodeRow): Promise<GpuTransition[]> {
    return this.applyHostInfo(node, await this.agents.get(node).getHostInfo(PROBE_TIMEOUT_MS));
  }

  /** Stores what the node reported (refresh's second half). */
  async applyHostInfo(node: Pick<NodeRow, 'id'>, info: HostInfo__Output): Promise<GpuTransition[]> {
    const { facts, gpus } = factsFromHostInfo(info);
    // What did not change is not written; new disk space only goes with the next heartbeat.
    const { became, deferredHostInfo, anyMissing } = await this.repo.update(node.id, facts, gpus, {
      volatileHostInfo: VOLATILE_HOST_INFO,
    });
    if (deferredHostInfo) this.heartbeats.carry(node.id, { hostInfo: deferredHostInfo });
    else this.heartbeats.drop(node.id, ['hostInfo']);
    if (gpus && anyMissing) {
      const held = (await this.usage.heldGpus([node.id])).map((h) => h.gpu_uuid);
      await this.repo.pruneMissingGpus(node.id, new Date(Date.now() - MISSING_GPU_RETENTION_MS), held);
    }
    return became;
  }

  list(): Promise<NodeRow[]> {
    return this.repo.list();
  }

  async require(id: number): Promise<NodeRow> {
    const row = await this.find(id);
    if (!row) throw notFound('节点不存在');
    return row;
  }

  /** The node; undefined when there is none. */
  find(id: number): Promise<NodeRow | undefined> {
    return this.repo.findById(id);
  }

  /** The node as a transaction sees it (the allocator's, holding the node's lock). */
  findIn(id: number, trx: Knex.Transaction): Promise<NodeRow | undefined> {
    return this.repo.findById(id, trx);
  }

  /** What other modules show of these nodes (status, GPUs, name), by id; gone nodes are missing. */
  summaries(ids: number[]): Promise<Map<number, NodeSummary>> {
    return this.repo.summaries([...new Set(ids)]);
  }

  async listViews(): Promise<NodeView[]> {
    const rows = await this.repo.list();
    return Promise.all(rows.map((r) => this.view(r)));
  }

  async getView(id: number): Promise<NodeView> {
    return this.view(await this.require(id));
  }

  async remove(id: number): Promise<void> {
    await this.require(id);
    if ((await this.usage.activeContainerCount(id)) > 0) {
      throw conflict('节点上仍有容器，请先销毁容器', 'NODE_IN_USE');
    }
    if (((await this.usage.volumeCount?.(id)) ?? 0) > 0) {
      throw conflict('节点上仍有用户的存储卷，请先删除存储卷', 'NODE_HAS_VOLUMES');
    }
    await this.repo.delete(id);
  }

  /** Every GPU row of the node (missing ones too), lowest index first. */
  gpus(nodeId: number, trx?: Knex.Transaction): Promise<NodeGpuRow[]> {
    return this.repo.gpus(nodeId, trx);
  }

  /** The GPU rows of these nodes, by node. */
  gpusOf(nodeIds: number[]): Promise<Map<number, NodeGpuRow[]>> {
    return this.repo.gpusOf([...new Set(nodeIds)]);
  }

  /** GPUs that may be rented now on each of these nodes (present, healthy, not MIG, fabric ready, free). */
  async freeGpuCounts(nodeIds: number[]): Promise<Map<number, number>> {
    const ids = [...new Set(nodeIds)];
    // Three queries whatever the number of nodes (the market lists every product at once).
    const [nodes, gpus, held] = await Promise.all([
      this.repo.gpuProbeErrors(ids),
      this.repo.gpuStates(ids),
      this.usage.heldGpus(ids),
    ]);
    const taken = new Map<number, Set<string>>();
    for (const h of held) {
      const set = taken.get(h.node_id) ?? new Set<string>();
      set.add(h.gpu_uuid);
      taken.set(h.node_id, set);
    }
    const byNode = new Map<number, typeof gpus>();
    for (const g of gpus) {
      const list = byNode.get(g.node_id) ?? [];
      list.push(g);
      byNode.set(g.node_id, list);
    }
    const out = new Map<number, number>();
    for (const [id, node] of nodes) {
      const rows = (byNode.get(id) ?? []) as NodeGpuRow[];
      out.set(id, sellableGpus(node, rows, taken.get(id) ?? new Set()).length);
    }
    return out;
  }

  /** Settles once written: with the other nodes' of its tick, in one statement. */
  heartbeat(nodeId: number, dockerAvailable: boolean): Promise<void> {
    return this.heartbeats.beat(nodeId, dockerAvailable, new Date());
  }

  /** Writes the heartbeats waiting for their tick now (the node monitor's stop). */
  async flushHeartbeats(): Promise<void> {
    await Promise.all([this.heartbeats.flush(), this.samples.flush()]);
  }

  markStaleOffline(olderThanMs: number): Promise<number[]> {
    return this.repo.markStaleOffline(new Date(Date.now() - olderThanMs));
  }

  setStatus(nodeId: number, status: NodeRow['status']): Promise<void> {
    return this.repo.setStatus(nodeId, status);
  }

  async recordGpuSample(nodeId: number, sample: GpuSample__Output): Promise<void> {
    const at = Number(sample.timeUnixMs) || Date.now();
    const bucket = new Date(Math.floor(at / GPU_SAMPLE_BUCKET_MS) * GPU_SAMPLE_BUCKET_MS);
    const gpus: GpuMetric[] = sample.gpus.map((g) => ({
      uuid: g.uuid,
      index: g.index,
      utilization_percent: g.utilizationPercent,
      memory_used_mib: Number(g.memoryUsedMib),
      memory_total_mib: Number(g.memoryTotalMib),
      temperature_c: g.temperatureC,
      power_draw_w: g.powerDrawW,
    }));
    await this.samples.add({ nodeId, bucket, gpus });
  }

  pruneGpuSamples(): Promise<void> {
    return this.repo.pruneGpuSamples(new Date(Date.now() - GPU_SAMPLE_RETENTION_MS));
  }

  /**
   * GPU utilisation, memory, temperature and power over the last minutes, optionally for some
   * GPUs only (by UUID). Samples stored before GPUs were named by UUID are read by index (the
   * GPU that has that index now).
   */
  async gpuMetrics(nodeId: number, minutes: number, only?: string[]): Promise<GpuMetrics> {
    const keep = only ? new Set(only) : undefined;
    const [gpus, rows] = await Promise.all([
      this.repo.gpus(nodeId),
      this.repo.gpuSamples(nodeId, new Date(Date.now() - minutes * 60_000)),
    ]);
    const present = gpus.filter((g) => !g.missing_since);
    const uuidAt = new Map(present.map((g) => [g.gpu_index, g.uuid]));
    return {
      gpus: gpus
        .filter((g) => (keep ? keep.has(g.uuid) : !g.missing_since))
        .map((g) => ({ uuid: g.uuid, index: g.gpu_index, model: g.model })),
      samples: rows.map((r) => ({
        time: r.bucket.toISOString(),
        gpus: r.gpus
          .map((g) => ({ ...g, uuid: g.uuid || uuidAt.get(g.index) || '' }))
          .filter((g) => !keep || keep.has(g.uuid)),
      })),
    };
  }

  /**
   * Records the labelled containers the agent reports that the platform has no live row for
   * (`known` = ids of the node's containers that are not deleted). They are shown to admins,
   * never removed automatically. Returns the ones not reported before.
   */
  async recordUnknownContainers(
    nodeId: number,
    reported: ContainerInfo__Output[],
    known: Set<string>,
  ): Promise<UnknownContainer[]> {
    const unknown = reported
      .filter((c) => !known.has(c.containerId))
      .map((c) => ({
        container_id: c.containerId,
        docker_id: c.dockerId,
        owner_id: c.ownerId,
        state: c.state.replace('CONTAINER_STATE_', '').toLowerCase(),
        image: c.image,
      }));
    const stored = (await this.repo.findById(nodeId))?.unknown_containers ?? [];
    const before = new Set(stored.map((c) => c.container_id));
    const key = (list: UnknownContainer[]) =>
      JSON.stringify(
        [...list]
          .sort((a, b) => a.container_id.localeCompare(b.container_id))
          .map((c) => [c.container_id, c.docker_id, c.owner_id, c.state, c.image]),
      );
    if (key(unknown) === key(stored)) {
      // Nothing new: when it was checked goes with the node's next heartbeat.
      this.heartbeats.carry(nodeId, { reconciledAt: new Date() });
    } else {
      await this.repo.setUnknownContainers(nodeId, unknown, new Date());
      this.heartbeats.drop(nodeId, ['reconciledAt']);
    }
    // Only the newly found ones: the caller logs them once, not on every report.
    return unknown.filter((c) => !before.has(c.container_id));
  }

  private async view(row: NodeRow): Promise<NodeView> {
    const [gpus, held] = await Promise.all([this.repo.gpus(row.id), this.usage.heldGpus([row.id])]);
    const holder = new Map(held.map((h) => [h.gpu_uuid, h.container_id]));
    const info = (row.host_info ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof info[key] === 'string' ? (info[key] as string) : '');
    const devicePath = text('gpuDevicePath');
    return {
      id: row.id,
      name: row.name,
      address: row.address,
      region: row.region,
      public_host: publicHostOf(row),
      status: row.status,
      last_heartbeat_at: row.last_heartbeat_at ? row.last_heartbeat_at.toISOString() : null,
      hostname: text('hostname'),
      cpu_model: text('cpuModel'),
      cpu_cores: Number(info.cpuCores ?? 0),
      memory_total_bytes: Number(info.memoryTotalBytes ?? 0),
      docker_available: row.docker_available,
      docker_error: row.docker_error,
      docker_version: text('dockerVersion'),
      nvidia_driver_version: text('nvidiaDriverVersion'),
      cuda_version: text('cudaVersion'),
      container_toolkit_version: text('containerToolkitVersion'),
      container_toolkit_mode: text('containerToolkitMode'),
      nvidia_container_cli_version: text('nvidiaContainerCliVersion'),
      nvidia_container_runtime_hook_version: text('nvidiaContainerRuntimeHookVersion'),
      nvidia_cdi_hook_version: text('nvidiaCdiHookVersion'),
      gpu_device_path: devicePath === 'cdi' || devicePath === 'legacy' ? devicePath : '',
      warnings: Array.isArray(info.warnings) ? info.warnings.filter((w) => typeof w === 'string') : [],
      gpu_probe_error: gpuProbeErrorOf(row),
      unsafe_reason: text('unsafeReason'),
      simulated: row.simulated,
      gpu_model: row.gpu_model,
      gpu_total: row.gpu_total,
      gpu_allocated: holder.size,
      gpu_free: sellableGpus(row, gpus, new Set(holder.keys())).length,
      gpus: gpus.map((g) => ({
        uuid: g.uuid,
        index: g.gpu_index,
        pci_bus_id: g.pci_bus_id,
        model: g.model,
        memory_total_mib: g.memory_total_mib,
        state: gpuState(g),
        health_problem: g.health_problem,
        persistence_mode: g.persistence_mode,
        fabric_state: g.fabric_state,
        numa_node: g.numa_node,
        nvlink_peers: g.nvlink_peers ?? [],
        allocated: holder.has(g.uuid),
        container_id: holder.get(g.uuid) ?? null,
      })),
      unknown_containers: row.unknown_containers ?? [],
      reconciled_at: row.reconciled_at ? row.reconciled_at.toISOString() : null,
    };
  }
}
