import type { ContainerInfo__Output, GpuSample__Output } from '@gpucloud/proto';
import { AgentCallError } from '../../agents/agent-client.js';
import { agentError, outcomeUnknown } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { KeyedChangeCache } from '../../db/change-cache.js';
import type { AuthUser } from '../../framework/auth.js';
import { conflict, notFound, unavailable } from '../../framework/errors.js';
import type { SecretBox } from '../../framework/secret-box.js';
import { gpuProblemText, gpuState } from '../nodes/gpus.js';
import type { NodeGpuRow, NodeRow } from '../nodes/repository.js';
import type { NodesService } from '../nodes/service.js';
import type { StorageService } from '../storage/service.js';
import { authorizedKeys, type UsersService } from '../users/service.js';
import { adoptionFor, reportApplies } from './adopt.js';
import type { Allocator } from './allocator.js';
import type { ContainerBilling } from './billing-hooks.js';
import type { ContainerChanges } from './changes.js';
import type { ContainerListReply, ContainerMetricsReply } from './contract.js';
import type { ContainerGpuSamples } from './gpu-samples.js';
import type {
  ContainerGpu,
  ContainerRecord,
  ContainerStatus,
  ContainersRepository,
  ContainerWithGpus,
  OwnedContainer,
} from './repository.js';
import type { MetricsRange } from './schema.js';
import {
  ACTIVE,
  type AgentFacts,
  DEFAULT_LEASE_MS,
  HALTED,
  PROVISIONING,
  statusFromAgent,
} from './status.js';
import { type ContainerView, containerView } from './view.js';

export interface ContainersDeps {
  repo: ContainersRepository;
  allocator: Allocator;
  nodes: NodesService;
  users: UsersService;
  agents: AgentPool;
  secrets: SecretBox;
  /** Storage volumes: turns the mounts a row keeps into the node's volume directories. */
  storage: Pick<StorageService, 'agentMounts'>;
  log: (message: string, err?: unknown) => void;
  /** Money: start checks and the metering of running time (the billing module). */
  billing: ContainerBilling;
  /** 监控: the GPU samples of each container (gpu-samples.ts). */
  gpuSamples: ContainerGpuSamples;
  /** Announces status changes (a status request may wait for one). */
  changes: ContainerChanges;
  /** How long a hold (whileHeld) outlives a process that died (DEFAULT_LEASE_MS). */
  leaseMs?: number;
  /**
   * Each user's list replies kept between changes of what they show (db/change-cache.ts); none:
   * every list reads the database.
   */
  listCache?: KeyedChangeCache<ContainerListReply>;
}

/** What a waiting status request already knows. */
export interface KnownStatus {
  status: string;
  /** Where it knows the pull's percentage: a new percentage answers too. */
  pullProgress?: number;
}

/** A waiting request reads the row again at least this often (a lost notification, a replica's). */
const STATUS_RECHECK_MS = 1000;

export interface ActorOptions {
  /** An admin acting on any user's container. */
  admin?: boolean;
}

const NOT_FOUND_ON_NODE = 5; // grpc.status.NOT_FOUND

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/**
 * The GPUs a container holds as its views show them (lowest index first) and why one cannot be
 * used. A held UUID the node has no row for (forgotten, or an allocation the migration could not
 * name) is missing.
 */
export function containerGpus(
  uuids: string[],
  nodeGpus: NodeGpuRow[],
): { gpus: ContainerGpu[]; problem: string | null } {
  const byUuid = new Map(nodeGpus.map((g) => [g.uuid, g]));
  const rows = uuids.map(
    (uuid): NodeGpuRow =>
      byUuid.get(uuid) ?? {
        node_id: 0,
        gpu_index: -1,
        uuid,
        model: '',
        memory_total_mib: 0,
        pci_bus_id: '',
        health_problem: '',
        persistence_mode: false,
        mig_enabled: false,
        fabric_state: '',
        numa_node: -1,
        nvlink_peers: [],
        missing_since: new Date(0),
        problem_since: null,
      },
  );
  rows.sort((a, b) => a.gpu_index - b.gpu_index || a.uuid.localeCompare(b.uuid));
  const problems = rows.map(gpuProblemText).filter((t): t is string => t !== null);
  return {
    gpus: rows.map((g) => ({
      uuid: g.uuid,
      index: g.gpu_index,
      pci_bus_id: g.pci_bus_id,
      state: gpuState(g),
    })),
    problem: problems.length > 0 ? problems.join('；') : null,
  };
}

/**
 * A row of its owner's list (with its node's and GPUs' facts, read in the same statement) as a
 * record, as records() makes one.
 */
export function ownedRecord(c: OwnedContainer, username: string): ContainerRecord {
  const { gpu_facts, node_reported_host, node_region, ...row } = c;
  const held = containerGpus(
    c.gpu_uuids,
    gpu_facts.map(
      (g): NodeGpuRow => ({
        node_id: c.node_id,
        gpu_index: g.gpu_index,
        uuid: g.uuid,
        model: '',
        memory_total_mib: 0,
        pci_bus_id: g.pci_bus_id,
        health_problem: g.health_problem,
        persistence_mode: false,
        mig_enabled: g.mig_enabled,
        fabric_state: g.fabric_state,
        numa_node: -1,
        nvlink_peers: [],
        missing_since: g.missing_since ? new Date(g.missing_since) : null,
        problem_since: null,
      }),
    ),
  );
  return {
    ...row,
    gpu_uuids: held.gpus.map((g) => g.uuid),
    gpus: held.gpus,
    gpu_indices: held.gpus.map((g) => g.index),
    gpu_problem: held.problem,
    username,
    node_name: c.node_name ?? '',
    node_address: c.node_address ?? '',
    node_public_host: c.node_public_host,
    node_host_info: node_reported_host === null ? null : { publicHost: node_reported_host },
    node_simulated: c.node_simulated ?? false,
    node_status: c.node_status ?? 'offline',
    region: node_region ?? '',
  };
}

/** Hourly containers give their GPUs back while stopped; prepaid ones keep what was paid for. */
export function releasesGpusWhenStopped(c: Pick<ContainerRecord, 'billing_type'>): boolean {
  return c.billing_type === 'hourly';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves at the first of `promises`, or when `signal` aborts. */
function waitForAny(promises: Promise<void>[], signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      signal?.removeEventListener('abort', done);
      resolve();
    };
    signal?.addEventListener('abort', done);
    for (const p of promises) p.then(done);
  });
}

/** Listing containers and their lifecycle: start (re-allocating GPUs), stop, destroy. */
/** The columns `facts` changes (Jupyter only when known; a layer measured or no longer measured). */
function factsChanged(
  c: Pick<ContainerRecord, 'jupyter' | 'writable_layer_bytes' | 'writable_layer_allowance_bytes'>,
  facts: AgentFacts,
): Partial<Pick<ContainerRecord, 'jupyter' | 'writable_layer_bytes' | 'writable_layer_allowance_bytes'>> {
  const changed: ReturnType<typeof factsChanged> = {};
  if (facts.jupyter && c.jupyter !== facts.jupyter) changed.jupyter = facts.jupyter;
  if (facts.writableLayerBytes !== undefined) {
    const bytes = facts.writableLayerBytes > 0 ? facts.writableLayerBytes : null;
    const allowance = facts.writableLayerAllowanceBytes ? facts.writableLayerAllowanceBytes : null;
    if (c.writable_layer_bytes !== bytes) changed.writable_layer_bytes = bytes;
    if (c.writable_layer_allowance_bytes !== allowance) changed.writable_layer_allowance_bytes = allowance;
  }
  return changed;
}

export class ContainersService {
  constructor(private readonly d: ContainersDeps) {}

  // ------------------------------------------------------------------ for the lifecycle jobs

  /** What the container lifecycle jobs (src/jobs) read; they act through stop and destroy. */
  get lifecycle() {
    const repo = this.d.repo;
    return {
      activeHourlyOf: (userIds: number[]) => repo.activeHourlyOf(userIds),
      prepaidDue: (now: Date) => repo.prepaidDue(now),
      prepaidEndingBy: (now: Date, until: Date) => repo.prepaidEndingBy(now, until),
      hourlyHaltedSince: (before: Date) => repo.hourlyHaltedSince(before),
      state: (id: string) => repo.lifecycle(id),
    };
  }

  /**
   * How many containers are in each status, deleted ones aside, every other status named (0 where
   * none): the metrics' containers-by-status, read at each scrape in one grouped query.
   */
  async countByStatus(): Promise<Map<ContainerStatus, number>> {
    const counted = await this.d.repo.countByStatus();
    return new Map([...PROVISIONING, ...ACTIVE, ...HALTED].map((s) => [s, counted.get(s) ?? 0]));
  }

  // ------------------------------------------------------------------ queries

  /**
   * The rows with their owners' usernames and their nodes (the users and nodes modules'): a fixed
   * number of queries whatever the number of rows, none for the owner's name when `owner` (who
   * owns every row) gives it.
   */
  private async records(rows: ContainerWithGpus[], owner?: AuthUser): Promise<ContainerRecord[]> {
    if (rows.length === 0) return [];
    const nodeIds = [...new Set(rows.map((c) => c.node_id))];
    const withGpus = [...new Set(rows.filter((c) => c.gpu_uuids.length > 0).map((c) => c.node_id))];
    const ownerKnown = owner?.username && rows.every((c) => c.user_id === owner.id);
    const [usernames, nodes, gpus] = await Promise.all([
      ownerKnown
        ? new Map([[owner.id, owner.username]])
        : this.d.users.usernames([...new Set(rows.map((c) => c.user_id))]),
      nodeIds.length === 1
        ? this.d.nodes.find(nodeIds[0] as number).then((n) => (n ? [n] : []))
        : this.d.nodes.list(),
      withGpus.length > 0 ? this.d.nodes.gpusOf(withGpus) : new Map<number, NodeGpuRow[]>(),
    ]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    return rows.map((c) => {
      const node = byId.get(c.node_id);
      const held = containerGpus(c.gpu_uuids, gpus.get(c.node_id) ?? []);
      return {
        ...c,
        gpu_uuids: held.gpus.map((g) => g.uuid),
        gpus: held.gpus,
        gpu_indices: held.gpus.map((g) => g.index),
        gpu_problem: held.problem,
        username: usernames.get(c.user_id) ?? '',
        node_name: node?.name ?? '',
        node_address: node?.address ?? '',
        node_public_host: node?.public_host ?? null,
        node_host_info: (node?.host_info as Record<string, unknown> | null | undefined) ?? null,
        node_simulated: node?.simulated ?? false,
        node_status: node?.status ?? 'offline',
        region: node?.region ?? '',
      };
    });
  }

  private async record(id: string): Promise<ContainerRecord | undefined> {
    const row = await this.d.repo.find(id);
    return row ? (await this.records([row]))[0] : undefined;
  }

  /**
   * The user's list (the console asks every few seconds): kept between changes where a cache is
   * given. Nothing in a view depends on the clock (its times are stored ones).
   */
  listForUser(user: AuthUser): Promise<ContainerListReply> {
    const cache = this.d.listCache;
    return cache ? cache.get(user.id, () => this.readList(user)) : this.readList(user);
  }

  /** How many lists the cache read from the database (for tests: a kept list reads nothing). */
  listCacheLoads(): number {
    return this.d.listCache?.loads ?? 0;
  }

  private async readList(user: AuthUser): Promise<ContainerListReply> {
    const { items, total } = await this.recordsOf(user);
    return { items: items.map((c) => containerView(c, this.d.secrets)), total };
  }

  /** The user's containers (live, newest first) as records: nothing decrypted (admin summaries). */
  async recordsOf(user: AuthUser): Promise<{ items: ContainerRecord[]; total: number }> {
    const { items, total } = await this.d.repo.ownedLive(user.id, 500);
    return { items: items.map((c) => ownedRecord(c, user.username)), total };
  }

  async listAll(filter: {
    page: number;
    size: number;
    username?: string | undefined;
    status?: string | undefined;
    userId?: number;
  }): Promise<ContainerListReply> {
    const userIds = filter.username ? await this.d.users.idsMatching(filter.username) : undefined;
    if (userIds?.length === 0) return { items: [], total: 0 };
    const { items, total } = await this.d.repo.list({
      ...(filter.userId !== undefined ? { userId: filter.userId } : {}),
      ...(userIds ? { userIds } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      offset: (filter.page - 1) * filter.size,
      limit: filter.size,
    });
    return { items: (await this.records(items)).map((c) => containerView(c, this.d.secrets)), total };
  }

  /** The container if the actor may see it; a foreign or deleted id is a 404 either way. */
  async require(actor: AuthUser, id: string, opts: ActorOptions = {}): Promise<ContainerRecord> {
    const c = await this.record(id);
    if (!c || (!opts.admin && c.user_id !== actor.id) || (c.status === 'deleted' && !opts.admin)) {
      throw notFound('容器不存在');
    }
    return c;
  }

  async get(actor: AuthUser, id: string, opts: ActorOptions = {}): Promise<ContainerView> {
    return containerView(await this.require(actor, id, opts), this.d.secrets);
  }

  /**
   * The container once its status (or pull percentage) differs from what the caller knows, or
   * after `waitMs`, whichever comes first: a console learns of 运行中 the moment it happens,
   * without polling. Ends early when `signal` aborts (the caller went away).
   */
  async waitForChange(
    actor: AuthUser,
    id: string,
    known: KnownStatus,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<ContainerView> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      // Watching before reading: a change between the two is not missed.
      const watch = this.d.changes.watch(id);
      try {
        const view = await this.get(actor, id);
        const changed =
          view.status !== known.status ||
          (known.pullProgress !== undefined && view.pull_progress !== known.pullProgress);
        const left = deadline - Date.now();
        if (changed || left <= 0 || signal?.aborted) return view;
        await waitForAny([watch.changed, delay(Math.min(left, STATUS_RECHECK_MS))], signal);
      } finally {
        watch.close();
      }
    }
  }

  /** A live container and its node, for operations that need the agent. */
  async target(
    actor: AuthUser,
    id: string,
    opts: ActorOptions = {},
  ): Promise<{ container: ContainerRecord; node: NodeRow }> {
    const container = await this.require(actor, id, opts);
    if (container.status === 'deleted') throw notFound('容器不存在');
    // Until the node has created it there is nothing to start, stop, change or watch.
    if (PROVISIONING.includes(container.status)) {
      throw conflict(
        container.status === 'pulling' ? '容器正在拉取镜像，请稍候' : '容器正在创建中，请稍候',
        'CONTAINER_PROVISIONING',
      );
    }
    return { container, node: await this.d.nodes.require(container.node_id) };
  }

  /** Node ownership check for the log and console streams (admins may watch any container). */
  streamTarget(actor: AuthUser, id: string): Promise<{ container: ContainerRecord; node: NodeRow }> {
    return this.target(actor, id, { admin: actor.isAdmin });
  }

  /** 监控: the GPUs the container held over the range, with their samples (404 when not the actor's). */
  async gpuMetrics(actor: AuthUser, id: string, range: MetricsRange): Promise<ContainerMetricsReply> {
    return this.d.gpuSamples.read(await this.require(actor, id), range);
  }

  /** A node's GPU sample, for the containers holding its GPUs (the node monitor's). */
  recordGpuSample(nodeId: number, sample: GpuSample__Output): void {
    this.d.gpuSamples.record(nodeId, sample);
  }

  /** Writes the GPU samples of the minutes not over yet (the node monitor's stop; tests). */
  flushGpuSamples(): Promise<void> {
    return this.d.gpuSamples.flush();
  }

  /** Rolls GPU samples up and prunes them (the node monitor's sync). */
  maintainGpuSamples(): Promise<void> {
    return this.d.gpuSamples.maintain();
  }

  // ------------------------------------------------------------------ lifecycle

  /**
   * Starts the container. An hourly container that gave its GPUs back gets new ones on the same
   * node (its data lives there); when too few are free the start is refused, unless `noGpu`
   * asks to start without GPUs (无卡模式). Mounts saved since the last start are applied now.
   */
  async start(
    actor: AuthUser,
    id: string,
    opts: ActorOptions & { noGpu?: boolean } = {},
  ): Promise<ContainerView> {
    const { container: c, node } = await this.target(actor, id, opts);
    if (c.status === 'running') return containerView(c, this.d.secrets);
    if (node.status === 'offline') throw unavailable('节点离线，暂时无法启动', 'NODE_OFFLINE');
    await this.d.billing.beforeStart(c, Boolean(opts.noGpu));

    // By UUID: a container made when GPUs were named by index gets its UUIDs now (recreated).
    let devices = c.gpu_uuids;
    let allocatedNow: string[] = [];
    if (c.gpu_count > 0 && c.gpu_uuids.length === 0 && !opts.noGpu) {
      allocatedNow = await this.d.allocator.withNodeLock(node.id, async (trx) => {
        const picked = (await this.d.allocator.pickGpus(node, c.gpu_count, trx, '，可选择无卡模式启动')).map(
          (g) => g.uuid,
        );
        await this.d.repo.allocate(node.id, c.id, picked, [], trx);
        return picked;
      });
      devices = allocatedNow;
    } else if (opts.noGpu) {
      await this.d.repo.releaseGpus(c.id);
      devices = [];
    }

    const agent = this.d.agents.get(node);
    const owner = await this.d.users.findById(c.user_id);
    const keys = owner ? authorizedKeys(owner) : [];
    const mounts = c.pending_mounts;
    const recreate = !sameSet(devices, c.gpu_devices) || mounts !== null;
    try {
      // Held while the node works on it: its events (a recreate's stop and removal, the start)
      // are not a stop; the status written below ends the hold.
      const info = await this.whileHeld(id, 'starting', async () => {
        if (recreate) {
          await agent.reconfigureContainer({
            containerId: id,
            setGpus: true,
            gpuDeviceIds: devices,
            setMounts: mounts !== null,
            mounts: this.d.storage.agentMounts(mounts ?? []).map((m) => ({ ...m, readOnly: false })),
            restartIfRunning: false,
            authorizedKeys: keys,
          });
          await this.d.repo.updateJson(id, {
            gpu_devices: devices,
            ...(mounts ? { mounts, pending_mounts: null } : {}),
          });
        }
        return agent.startContainer({ containerId: id, authorizedKeys: keys });
      });
      const status = statusFromAgent(info);
      await this.d.repo.update(id, {
        status,
        no_gpu: c.gpu_count > 0 && devices.length === 0,
        started_at: status === 'running' ? new Date() : c.started_at,
        start_error: status === 'running' ? null : info.startError || '容器未能启动',
        jupyter: info.jupyter,
      });
      if (status === 'running') await this.d.billing.running(id);
    } catch (err) {
      const failure = agentError(err, '启动容器失败');
      // Where the node may have started it all the same, the GPUs stay: its next report says
      // (a running container keeps them, a stopped hourly one gives them back).
      if (allocatedNow.length > 0 && !outcomeUnknown(err)) await this.d.repo.releaseGpus(id);
      const gone = err instanceof AgentCallError && err.code === NOT_FOUND_ON_NODE;
      await this.d.repo.update(id, { status: gone ? 'not_found' : 'error', start_error: failure.detail });
      throw failure;
    }
    return this.get(actor, id, opts);
  }

  async stop(actor: AuthUser, id: string, opts: ActorOptions = {}): Promise<ContainerView> {
    const { container: c, node } = await this.target(actor, id, opts);
    try {
      const info = await this.d.agents.get(node).stopContainer(id);
      const running = statusFromAgent(info) === 'running';
      await this.d.repo.update(id, { status: running ? 'running' : 'stopped', stopped_at: new Date() });
      if (!running) await this.d.billing.stopped(id);
      if (!running && releasesGpusWhenStopped(c)) await this.d.repo.releaseGpus(id);
    } catch (err) {
      if (err instanceof AgentCallError && err.code === NOT_FOUND_ON_NODE) {
        await this.d.repo.update(id, { status: 'not_found' });
      }
      throw agentError(err, '停止容器失败');
    }
    return this.get(actor, id, opts);
  }

  async destroy(actor: AuthUser, id: string, opts: ActorOptions = {}): Promise<void> {
    const c = await this.require(actor, id, opts);
    if (c.status === 'deleted') return;
    const node = await this.d.nodes.require(c.node_id);
    try {
      await this.d.agents.get(node).removeContainer(id);
    } catch (err) {
      throw agentError(err, '删除容器失败');
    }
    await this.d.repo.transaction(async (trx) => {
      await this.d.repo.releaseAllocations(id, trx);
      await this.d.gpuSamples.removeFor(id, trx);
      await this.d.repo.update(id, { status: 'deleted', deleted_at: new Date() }, trx);
    });
    await this.d.billing.destroyed(id);
  }

  /**
   * Containers a node still has for purchases the platform ended (failed, destroyed), e.g. made
   * by a node that died mid-create and came back: removed, since their GPUs and ports may be
   * another's now. Returns their ids.
   */
  async reapEnded(node: NodeRow, reportedIds: string[]): Promise<string[]> {
    const ended = await this.d.repo.endedAmong(node.id, reportedIds);
    for (const id of ended) {
      this.d.log(`node ${node.name} still has container ${id} of an ended purchase: removing it`);
      await this.d.agents
        .get(node)
        .removeContainer(id)
        .catch((err) => this.d.log(`removal of ${id} from node ${node.name} failed`, err));
    }
    return ended;
  }

  /**
   * Applies a state the agent reported (event stream, reconciliation); `observedAt` is when the
   * node was asked, so a report older than the platform's last status change is dropped.
   */
  async applyAgentState(
    containerId: string,
    status: ContainerStatus,
    observedAt: Date,
    facts: AgentFacts = {},
    /** The row as read for the whole report (liveOnNode): not read again. */
    known?: ContainerWithGpus,
  ): Promise<void> {
    const c = known ?? (await this.d.repo.find(containerId));
    if (c) {
      const changed = factsChanged(c, facts);
      if (Object.keys(changed).length > 0) await this.d.repo.update(containerId, changed);
    }
    // A failed purchase has no container (one the node made anyway is removed: reapEnded).
    if (
      !c ||
      c.status === 'deleted' ||
      c.status === 'failed' ||
      PROVISIONING.includes(c.status) ||
      c.status === status
    )
      return;
    const stopped = status === 'stopped' || status === 'error' || status === 'not_found';
    const applied = await this.d.repo.applyObservedStatus(containerId, c.status, observedAt, {
      status,
      ...(stopped ? { stopped_at: new Date() } : {}),
    });
    if (!applied) return; // a destroy, start or stop changed it meanwhile; that action settles it
    if (stopped && releasesGpusWhenStopped(c)) await this.d.repo.releaseGpus(containerId);
    if (stopped) await this.d.billing.stopped(containerId);
    else if (status === 'running') await this.d.billing.running(containerId);
  }

  /**
   * Takes the node's word on what its containers hold (adopt.ts): after a change cut off
   * half-way, the row's ports and GPUs follow Docker's. A port or GPU another container holds is
   * not taken (logged: the node's GPU and port checks refuse to start one of the two). Rows an
   * action holds, or changed since `observedAt`, are left to the action.
   */
  async adoptReported(node: NodeRow, reported: ContainerInfo__Output[], observedAt: Date): Promise<void> {
    const byId = new Map(reported.map((c) => [c.containerId, c]));
    const recorded = await this.d.repo.recordedAllocations(node.id);
    let nodeGpus: NodeGpuRow[] | undefined;
    for (const row of recorded) {
      const info = byId.get(row.id);
      if (!info || !reportApplies(row, observedAt)) continue;
      nodeGpus ??= await this.d.nodes.gpus(node.id);
      if (!adoptionFor(row, info, nodeGpus)) continue;
      await this.d.allocator.withNodeLock(node.id, async (trx) => {
        // Again under the node's lock: an allocation or an action may have come in between.
        const [now] = await this.d.repo.recordedAllocations(node.id, trx, row.id);
        if (!now || !reportApplies(now, observedAt)) return;
        const adoption = adoptionFor(now, info, nodeGpus ?? []);
        if (!adoption) return;
        const taken = await this.d.repo.heldByOthers(
          node.id,
          row.id,
          { ports: adoption.ports?.map((p) => p.host_port) ?? [], gpus: adoption.gpus?.uuids ?? [] },
          trx,
        );
        if (adoption.ports) {
          const ports = adoption.ports.filter((p) => !taken.ports.has(p.host_port));
          await this.d.repo.replacePorts(
            node.id,
            row.id,
            ports.map((p) => p.host_port),
            trx,
          );
          await this.d.repo.updateJson(row.id, { ports }, trx);
          this.d.log(
            `node ${node.name}: container ${row.id} binds ports ${ports.map((p) => p.host_port).join(',') || 'none'}; recorded ${now.reserved_ports.join(',') || 'none'} before`,
          );
        }
        if (adoption.gpus) {
          const gpus = adoption.gpus.uuids.filter((u) => !taken.gpus.has(u));
          await this.d.repo.replaceGpus(node.id, row.id, gpus, trx);
          await this.d.repo.updateJson(row.id, { gpu_devices: adoption.gpus.devices }, trx);
          this.d.log(
            `node ${node.name}: running container ${row.id} holds GPUs ${adoption.gpus.uuids.join(',') || 'none'}; recorded ${now.gpu_uuids.join(',') || 'none'} before`,
          );
        }
        for (const port of taken.ports)
          this.d.log(
            `node ${node.name}: container ${row.id} binds port ${port}, which another container holds`,
          );
        for (const uuid of taken.gpus)
          this.d.log(
            `node ${node.name}: container ${row.id} runs on GPU ${uuid}, which another container holds`,
          );
      });
    }
  }

  /**
   * Runs `action` (a recreate, a start) while the row shows `status` and no report of the node
   * changes it: the recreate's own events (the old container's stop and removal, the new one's
   * start) would otherwise read as a stop and free its GPUs. The hold is a lease renewed while
   * the action runs, however long a commit takes; where the process dies it runs out within
   * `leaseMs` and the node's reports settle the row (statuses, ports and GPUs: adoptReported).
   * The action's own status write ends it.
   */
  async whileHeld<T>(id: string, status: ContainerStatus, action: () => Promise<T>): Promise<T> {
    const leaseMs = this.d.leaseMs ?? DEFAULT_LEASE_MS;
    await this.d.repo.holdStatus(id, status, new Date(Date.now() + leaseMs));
    const renewal = setInterval(() => {
      this.d.repo
        .renewHold(id, new Date(Date.now() + leaseMs))
        .catch((err) => this.d.log(`hold of ${id} not renewed`, err));
    }, leaseMs / 4);
    renewal.unref();
    try {
      return await action();
    } finally {
      clearInterval(renewal);
    }
  }

  /** Live containers holding any of these GPUs of the node, with their owners (the node monitor's notices). */
  gpuHolders(nodeId: number, uuids: string[]) {
    return this.d.repo.holdersOf(nodeId, uuids);
  }

  /**
   * The node's settled containers, whole, in one query (a report is applied to each with
   * applyAgentState, which then reads none again; its writes stay guarded by status and time).
   */
  liveOnNode(nodeId: number): Promise<ContainerWithGpus[]> {
    return this.d.repo.settledOnNode(nodeId);
  }

  /** Ids of every container of the node the platform still knows (all but deleted). */
  knownIdsOnNode(nodeId: number): Promise<string[]> {
    return this.d.repo.knownIdsOnNode(nodeId);
  }
}
