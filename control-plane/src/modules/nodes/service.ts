import type { ContainerInfo__Output, GpuSample__Output, HostInfo__Output } from '@gpucloud/proto';
import type { Knex } from 'knex';
import { AgentCallError } from '../../agents/agent-client.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import { isUniqueViolation } from '../../framework/db-errors.js';
import { AppError, conflict, notFound } from '../../framework/errors.js';
import type { GpuMetricsReply, NodeReply } from './contract.js';
import type {
  NodeFacts,
  NodeGpuRow,
  NodeRow,
  NodeSummary,
  NodesRepository,
  UnknownContainer,
} from './repository.js';

/** What the nodes module needs to know about containers (owned by the containers module). */
export interface NodeUsage {
  allocatedGpuIndices(nodeId: number): Promise<number[]>;
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

export function factsFromHostInfo(info: HostInfo__Output): {
  facts: NodeFacts;
  gpus: Omit<NodeGpuRow, 'node_id'>[];
} {
  const gpus = info.gpus.map((g) => ({
    gpu_index: g.index,
    uuid: g.uuid,
    model: g.model,
    memory_total_mib: Number(g.memoryTotalMib),
  }));
  return {
    facts: {
      host_info: { ...info, gpus: undefined } as unknown as Record<string, unknown>,
      docker_available: info.dockerAvailable,
      docker_error: info.dockerError || null,
      simulated: info.simulated,
      gpu_model: gpus[0]?.model ?? null,
      gpu_total: gpus.length,
      port_range_start: info.portRangeStart || 20000,
      port_range_end: info.portRangeEnd || 29999,
      status: info.unsafeReason ? 'unsafe' : 'online',
    },
    gpus,
  };
}

/** The host users connect to: the configured public host, else the agent's, else the address host. */
export function publicHostOf(node: Pick<NodeRow, 'public_host' | 'address' | 'host_info'>): string {
  if (node.public_host) return node.public_host;
  const reported = node.host_info?.publicHost;
  if (typeof reported === 'string' && reported) return reported;
  return node.address.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
}

export class NodesService {
  constructor(
    private readonly repo: NodesRepository,
    private readonly agents: AgentPool,
    private readonly usage: NodeUsage,
  ) {}

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

  /** Reads the host again and stores what it reports. */
  async refresh(node: NodeRow): Promise<void> {
    const info = await this.agents.get(node).getHostInfo(PROBE_TIMEOUT_MS);
    const { facts, gpus } = factsFromHostInfo(info);
    await this.repo.update(node.id, facts, gpus);
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

  gpus(nodeId: number, trx?: Knex.Transaction): Promise<NodeGpuRow[]> {
    return this.repo.gpus(nodeId, trx);
  }

  heartbeat(nodeId: number, dockerAvailable: boolean): Promise<void> {
    return this.repo.heartbeat(nodeId, dockerAvailable, new Date());
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
    const gpus = sample.gpus.map((g) => ({
      index: g.index,
      utilization_percent: g.utilizationPercent,
      memory_used_mib: Number(g.memoryUsedMib),
      memory_total_mib: Number(g.memoryTotalMib),
      temperature_c: g.temperatureC,
      power_draw_w: g.powerDrawW,
    }));
    await this.repo.insertGpuSample(nodeId, bucket, gpus);
  }

  pruneGpuSamples(): Promise<void> {
    return this.repo.pruneGpuSamples(new Date(Date.now() - GPU_SAMPLE_RETENTION_MS));
  }

  /** GPU utilisation, memory, temperature and power over the last minutes, optionally for some GPUs only. */
  async gpuMetrics(nodeId: number, minutes: number, only?: number[]): Promise<GpuMetrics> {
    const keep = only ? new Set(only) : undefined;
    const [gpus, rows] = await Promise.all([
      this.repo.gpus(nodeId),
      this.repo.gpuSamples(nodeId, new Date(Date.now() - minutes * 60_000)),
    ]);
    return {
      gpus: gpus
        .filter((g) => !keep || keep.has(g.gpu_index))
        .map((g) => ({ index: g.gpu_index, model: g.model })),
      samples: rows.map((r) => ({
        time: r.bucket.toISOString(),
        gpus: keep ? r.gpus.filter((g) => keep.has(g.index)) : r.gpus,
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
    const before = new Set(
      ((await this.repo.findById(nodeId))?.unknown_containers ?? []).map((c) => c.container_id),
    );
    await this.repo.setUnknownContainers(nodeId, unknown, new Date());
    // Only the newly found ones: the caller logs them once, not on every report.
    return unknown.filter((c) => !before.has(c.container_id));
  }

  private async view(row: NodeRow): Promise<NodeView> {
    const [gpus, allocated] = await Promise.all([
      this.repo.gpus(row.id),
      this.usage.allocatedGpuIndices(row.id),
    ]);
    const taken = new Set(allocated);
    const info = (row.host_info ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof info[key] === 'string' ? (info[key] as string) : '');
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
      container_toolkit_version: text('containerToolkitVersion'),
      unsafe_reason: text('unsafeReason'),
      simulated: row.simulated,
      gpu_model: row.gpu_model,
      gpu_total: row.gpu_total,
      gpu_allocated: taken.size,
      gpus: gpus.map((g) => ({
        index: g.gpu_index,
        uuid: g.uuid,
        model: g.model,
        memory_total_mib: g.memory_total_mib,
        allocated: taken.has(g.gpu_index),
      })),
      unknown_containers: row.unknown_containers ?? [],
      reconciled_at: row.reconciled_at ? row.reconciled_at.toISOString() : null,
    };
  }
}
