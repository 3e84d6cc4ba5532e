import type { ContainerInfo__Output, GpuSample__Output, HostInfo__Output } from '@gpucloud/proto';
import type { Knex } from 'knex';
import { AgentCallError } from '../../agents/agent-client.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import { isUniqueViolation } from '../../framework/db-errors.js';
import { AppError, conflict, notFound } from '../../framework/errors.js';
import { agentFactsOf, agentVersionView, incompatibleReason } from '../fleet/agent-versions.js';
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

/** A container on a node that is not destroyed (the containers module's). */
export interface ContainerOnNode {
  id: string;
  name: string;
  user_id: number;
  node_id: number;
  status: string;
}

/** What the nodes module needs to know about containers (owned by the containers module). */
export interface NodeUsage {
  /** The GPUs held on these nodes (by UUID), with the container holding each. */
  heldGpus(nodeIds: number[]): Promise<HeldGpu[]>;
  activeContainerCount(nodeId: number): Promise<number>;
  /** Storage volumes kept on the node (they live in its directories). */
  volumeCount?(nodeId: number): Promise<number>;
  /** The containers of these nodes that are not destroyed, oldest first. */
  containersOn?(nodeIds: number[]): Promise<ContainerOnNode[]>;
  /** The storage volumes kept on the node, oldest first. */
  volumesOn?(nodeId: number): Promise<{ id: number; name: string }[]>;
}

/** Sends a notice to a user (站内信 / e-mail / SMS: the messages module, as billing's notices do). */
export interface NodeNotices {
  send(userId: number, subject: string, text: string): Promise<void>;
}

/**
 * Container statuses in which GPUs a container still holds are 保留 (held): nothing of it runs,
 * yet nobody else may rent them. The platform gives an hourly container's GPUs back when it stops
 * (containers/service.ts releasesGpusWhenStopped), but a prepaid one (包日/周/月/年) keeps what
 * was paid for until it is started again or destroyed; a container in error or not found on the
 * node keeps its allocation too until it is settled. GPUs of the other live containers are 已用
 * (used). The list is containers/status.ts HALTED (not imported: modules keep to their own code).
 */
const HOLDING_STATUSES = new Set(['stopped', 'error', 'failed', 'not_found']);

/** A node's removal names at most this many of what keeps it (then 等 N 个). */
const NAMED_AT_MOST = 10;

function namedList(items: string[]): string {
  const shown = items.slice(0, NAMED_AT_MOST).join('、');
  return items.length > NAMED_AT_MOST ? `${shown} 等 ${items.length} 个` : shown;
}

/** 2026-12-01 08:00 (UTC), as billing's notices write times. */
const fmtTime = (d: Date) => `${d.toISOString().replace('T', ' ').slice(0, 16)}（UTC）`;

export interface MaintenanceParams {
  until?: Date | undefined;
  reason?: string | undefined;
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
  const agent = agentFactsOf(info);
  const facts: NodeFacts = {
    host_info: { ...info, gpus: undefined } as unknown as Record<string, unknown>,
    docker_available: info.dockerAvailable,
    docker_error: info.dockerError || null,
    simulated: info.simulated,
    gpu_model: gpus[0]?.model ?? null,
    gpu_total: gpus.length,
    port_range_start: info.portRangeStart || 20000,
    port_range_end: info.portRangeEnd || 29999,
    ...agent,
    // An agent whose protocol is not spoken is kept offline (fleet/agent-versions.ts). Unsafe is
    // the agent's word on the host (the container toolkit), never one sick GPU.
    status: incompatibleReason(agent.agent_protocol) ? 'offline' : info.unsafeReason ? 'unsafe' : 'online',
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
const VOLATILE_HOST_INFO = [
  'diskFreeBytes',
  'diskTotalBytes',
  'imageDiskFreeBytes',
  'imageDiskTotalBytes',
  'volumeDiskFreeBytes',
  'volumeDiskTotalBytes',
] as const;

export class NodesService {
  /** Heartbeats are written per tick, all nodes in one statement (see heartbeats.ts). */
  private readonly heartbeats: HeartbeatBatcher;
  /** GPU samples too: the fleet's agents sample together (they were connected together). */
  private readonly samples: TickBatch<{ nodeId: number; bucket: Date; gpus: GpuMetric[] }>;
  /** Where the owners of a node's containers are told of its maintenance. */
  private readonly notices: NodeNotices | undefined;
  private readonly log: (message: string, err?: unknown) => void;

  constructor(
    private readonly repo: NodesRepository,
    private readonly agents: AgentPool,
    private readonly usage: NodeUsage,
    options: {
      heartbeatTickMs?: number;
      notices?: NodeNotices;
      log?: (message: string, err?: unknown) => void;
    } = {},
  ) {
    this.notices = options.notices;
    this.log = options.log ?? (() => undefined);
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

  /**
   * Registers a node that joined with a token (the fleet module's join), in its transaction: the
   * node is dialled with the platform's mutual TLS, offline until its agent answers.
   */
  insertJoined(
    params: { name: string; address: string; token: string; region: string; publicHost: string | null },
    trx: Knex.Transaction,
  ): Promise<NodeRow> {
    return this.repo.insertJoined(
      {
        name: params.name,
        address: params.address,
        token: params.token,
        region: params.region,
        public_host: params.publicHost,
        tls: 'platform',
      },
      trx,
    );
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

  /** Removes the node; refused (409) while containers or volumes are on it, naming them. */
  /** Upgrade bookkeeping for fleet/upgrade.ts (see NodesRepository). */
  claimUpgrade(nodeId: number, build: string, staleBefore: Date): Promise<boolean> {
    return this.repo.claimUpgrade(nodeId, build, staleBefore);
  }

  settleUpgrade(nodeId: number, build: string): Promise<boolean> {
    return this.repo.settleUpgrade(nodeId, build);
  }

  expireUpgrades(staleBefore: Date, error: string): Promise<number[]> {
    return this.repo.expireUpgrades(staleBefore, error);
  }

  recordUpgradeFailure(nodeId: number, error: string): Promise<void> {
    return this.repo.recordUpgradeFailure(nodeId, error);
  }

  async remove(id: number): Promise<void> {
    await this.require(id);
    if ((await this.usage.activeContainerCount(id)) > 0) {
      const on = (await this.usage.containersOn?.([id])) ?? [];
      const named = on.map((c) => `${c.name}（${c.id}）`);
      throw conflict(
        named.length > 0
          ? `节点上仍有 ${named.length} 个容器：${namedList(named)}，请先销毁容器`
          : '节点上仍有容器，请先销毁容器',
        'NODE_IN_USE',
      );
    }
    if (((await this.usage.volumeCount?.(id)) ?? 0) > 0) {
      const volumes = (await this.usage.volumesOn?.(id)) ?? [];
      const named = volumes.map((v) => `${v.name}（${v.id}）`);
      throw conflict(
        named.length > 0
          ? `节点上仍有 ${named.length} 个用户的存储卷：${namedList(named)}，请先删除存储卷`
          : '节点上仍有用户的存储卷，请先删除存储卷',
        'NODE_HAS_VOLUMES',
      );
    }
    await this.repo.delete(id);
  }

  /**
   * 维护中: the node's products leave the market (every replica's, through the market_changed
   * trigger), no new container is placed there, running ones keep running and being billed.
   * The owners of its containers are told (the end date, or 另行通知). Called again, it changes
   * the end and reason (and tells them again).
   */
  async startMaintenance(id: number, params: MaintenanceParams): Promise<NodeView> {
    const done = await this.repo.startMaintenance(id, params.until ?? null, params.reason ?? null);
    if (!done) throw notFound('节点不存在');
    const { row } = done;
    const until = row.maintenance_until ? `预计于 ${fmtTime(row.maintenance_until)}结束` : '结束时间另行通知';
    const reason = row.maintenance_reason ? `，原因：${row.maintenance_reason}` : '';
    await this.tellOwners(
      row,
      '节点维护通知',
      (names) =>
        `您的${names}所在的${row.region}节点自 ${fmtTime(row.maintenance_since as Date)}起进入维护${reason}，${until}。维护期间容器继续运行并照常计费，该节点暂停售卖新实例。`,
    );
    return this.view(row);
  }

  /** Ends the node's maintenance: offered in the market again; the owners are told. */
  async endMaintenance(id: number): Promise<NodeView> {
    const row = await this.require(id);
    if (await this.repo.endMaintenance(id)) {
      await this.tellOwners(
        row,
        '节点维护结束',
        (names) => `您的${names}所在的${row.region}节点已于 ${fmtTime(new Date())}结束维护，恢复正常服务。`,
      );
    }
    return this.getView(id);
  }

  /** One notice per owner of the node's containers (not destroyed, not failed), naming theirs. */
  private async tellOwners(node: NodeRow, subject: string, text: (names: string) => string): Promise<void> {
    if (!this.notices) return;
    const containers = ((await this.usage.containersOn?.([node.id])) ?? []).filter(
      (c) => c.status !== 'failed',
    );
    const byOwner = new Map<number, ContainerOnNode[]>();
    for (const c of containers) byOwner.set(c.user_id, [...(byOwner.get(c.user_id) ?? []), c]);
    for (const [userId, own] of byOwner) {
      const names = `容器 ${own.map((c) => `${c.name}（${c.id}）`).join('、')}`;
      await this.notices
        .send(userId, subject, text(names))
        .catch((err) => this.log(`maintenance notice to user ${userId} not sent`, err));
    }
  }

  /** The node monitor's last failed call to the node (shown in 节点 until one succeeds). */
  recordError(nodeId: number, error: string): Promise<void> {
    return this.repo.setLastError(nodeId, error.slice(0, 500), new Date());
  }

  /** A call to the node succeeded: its last error goes (nothing written when there is none). */
  clearError(nodeId: number): Promise<void> {
    return this.repo.clearLastError(nodeId);
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

  /**
   * How long ago each node's last heartbeat was written (the database's, which every replica
   * writes), by node; a node never heard from has none. Read at each metrics scrape.
   */
  async heartbeatLags(now = new Date()): Promise<{ id: number; name: string; lagMs: number | null }[]> {
    const rows = await this.repo.lastHeartbeats();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      lagMs: r.last_heartbeat_at
        ? Math.max(0, now.getTime() - new Date(r.last_heartbeat_at).getTime())
        : null,
    }));
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
    const [gpus, held, containers] = await Promise.all([
      this.repo.gpus(row.id),
      this.usage.heldGpus([row.id]),
      this.usage.containersOn?.([row.id]) ?? Promise.resolve([]),
    ]);
    const holder = new Map(held.map((h) => [h.gpu_uuid, h.container_id]));
    const info = (row.host_info ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof info[key] === 'string' ? (info[key] as string) : '');
    /** A byte count the agent reported (uint64 as text); null when it did not (older agents: 0). */
    const bytes = (key: string) => {
      const n = Number(info[key] ?? 0);
      return Number.isFinite(n) && n > 0 ? n : null;
    };
    const devicePath = text('gpuDevicePath');
    // Held (保留): GPUs kept by halted containers (HOLDING_STATUSES); used: by the others.
    const statusOf = new Map(containers.map((c) => [c.id, c.status]));
    let heldByHalted = 0;
    for (const containerId of holder.values()) {
      if (HOLDING_STATUSES.has(statusOf.get(containerId) ?? '')) heldByHalted++;
    }
    const free = sellableGpus(row, gpus, new Set(holder.keys())).length;
    const unsafeReason = text('unsafeReason');
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
      gpu_free: free,
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
      heartbeat_age_ms: row.last_heartbeat_at
        ? Math.max(0, Date.now() - new Date(row.last_heartbeat_at).getTime())
        : null,
      gpu_usage: {
        free,
        used: holder.size - heldByHalted,
        held: heldByHalted,
        total: gpus.filter((g) => !g.missing_since).length,
      },
      toolkit_unsafe: unsafeReason !== '',
      toolkit_unsafe_reason: unsafeReason,
      // The image disk: what the agent reports of Docker's data root, else its last image listing.
      image_disk_free_bytes: bytes('imageDiskFreeBytes') ?? row.image_disk_free_bytes ?? null,
      image_disk_total_bytes: bytes('imageDiskTotalBytes') ?? row.image_disk_total_bytes ?? null,
      volume_disk_free_bytes: bytes('volumeDiskFreeBytes'),
      volume_disk_total_bytes: bytes('volumeDiskTotalBytes'),
      last_error: row.last_error ?? null,
      last_error_at: row.last_error_at ? new Date(row.last_error_at).toISOString() : null,
      maintenance: row.maintenance_since
        ? {
            since: new Date(row.maintenance_since).toISOString(),
            until: row.maintenance_until ? new Date(row.maintenance_until).toISOString() : null,
            reason: row.maintenance_reason ?? null,
          }
        : null,
      ...agentVersionView(row),
    };
  }
}
