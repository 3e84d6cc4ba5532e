import type { AgentEvent__Output, ContainerInfo__Output, HostInfo__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { AgentCallError } from '../agents/agent-client.js';
import type { AgentPool } from '../agents/agent-pool.js';
import type { ContainersService } from '../modules/containers/service.js';
import { type AgentFacts, agentFacts, statusFromAgent } from '../modules/containers/status.js';
import { incompatibleReason } from '../modules/fleet/agent-versions.js';
import { gpuProblemText } from '../modules/nodes/gpus.js';
import type { GpuTransition, NodeRow } from '../modules/nodes/repository.js';
import type { NodesService } from '../modules/nodes/service.js';
import type { Scheduler } from './scheduler.js';

interface Subscription {
  key: string;
  call: grpc.ClientReadableStream<AgentEvent__Output> | undefined;
  retryTimer: NodeJS.Timeout | undefined;
  failures: number;
  reconciled: boolean;
  /**
   * The agent's first answer on this connection (GetHostInfo): false when its protocol is not
   * spoken (the node is refused: kept offline, its stream closed) or it could not be read. No
   * event of the stream is applied before it settles.
   */
  admission?: Promise<boolean>;
}

export interface NodeMonitorOptions {
  heartbeatIntervalMs: number;
  offlineAfterMs: number;
  syncIntervalMs: number;
  gpuSampleIntervalMs: number;
  log: (message: string, err?: unknown) => void;
  /** The nodes module's warm images: what a node holds is read again on every (re)connection. */
  images: { refresh(node: NodeRow): Promise<void> };
  /** How often a connected node's inventory (GPUs and their health) is read again. */
  inventoryIntervalMs?: number;
  /** Billing's notices: the owner of a container whose GPU became unusable is told once. */
  notices?: { gpuProblem(containerId: string, refAt: Date, problem: string): Promise<void> };
  /**
   * How many nodes' inventory reads and container reports are applied at once (8). Each holds a
   * database connection for a dozen queries: a thousand nodes connecting at once, or due for
   * their inventory in one sync, would otherwise take the whole pool and keep heartbeats, events
   * and the API waiting behind them.
   */
  nodeWorkConcurrency?: number;
  /** 升级 (fleet/upgrade.ts): a node that reports the build it was sent is upgraded; late ones failed. */
  upgrades?: {
    settle(nodeId: number, info: { agentBuild: string }): Promise<boolean>;
    expire(): Promise<number[]>;
  };
}

/** Runs at most `limit` tasks at once, the others in the order they came. */
class Limiter {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** How often the same last error of a node is written again while it lasts. */
const ERROR_REWRITE_MS = 60_000;

/** An agent call's failure as the node view shows it. */
function errorText(err: unknown): string {
  if (err && typeof err === 'object' && 'details' in err && typeof err.details === 'string' && err.details)
    return err.details;
  return err instanceof Error ? err.message : String(err);
}

/** How soon a refused node (its agent's protocol is not spoken) is asked again. */
const REFUSED_RETRY_MS = 60_000;

/** How long an inventory read waits for the agent (NodesService.refresh's probe waits as long). */
const INVENTORY_TIMEOUT_MS = 5000;

/**
 * Docker events sent while a container is on its way out of running, or paused for a moment by
 * the commit of a port or mount change (the platform never pauses a container otherwise).
 */
const LEAVING_ACTIONS = new Set(['create', 'kill', 'die', 'stop', 'oom', 'destroy', 'pause', 'unpause']);

/**
 * Follows every node's event stream: heartbeats keep the node online, container events update
 * container rows, and on each (re)connection the node's containers are reconciled with Docker.
 * Holds only connections: every fact goes to the database, so replicas may each run one.
 */
export class NodeMonitor {
  private readonly subs = new Map<number, Subscription>();
  /** When each node's inventory was read last, and the reads under way. */
  private readonly inventoryAt = new Map<number, number>();
  /**
   * The inventory read in progress per node. Reads of one node run one after the other, so the
   * last one stored is the last one read: an older answer never overwrites a newer one.
   */
  private readonly inventoryRuns = new Map<number, Promise<void>>();
  private stopped = false;
  private readonly nodeWork: Limiter;
  /** The last error this monitor wrote per node, and when (a success clears it). */
  private readonly errored = new Map<number, { error: string; at: number }>();

  /** Syncs on the scheduler's start and every syncIntervalMs after. */
  constructor(
    scheduler: Scheduler,
    private readonly nodes: NodesService,
    private readonly containers: ContainersService,
    private readonly agents: AgentPool,
    private readonly options: NodeMonitorOptions,
  ) {
    this.nodeWork = new Limiter(Math.max(1, options.nodeWorkConcurrency ?? 8));
    scheduler.every('node monitor sync', options.syncIntervalMs, () =>
      this.stopped ? Promise.resolve() : this.sync(),
    );
  }

  /** Closes every node's stream (the scheduler's stop ends the syncs); heartbeats received are written. */
  stop(): Promise<void> {
    this.stopped = true;
    for (const sub of this.subs.values()) this.close(sub);
    this.subs.clear();
    return Promise.all([
      this.nodes.flushHeartbeats().catch((err) => this.options.log('heartbeats not written', err)),
      this.containers
        .flushGpuSamples()
        .catch((err) => this.options.log('GPU samples of containers not written', err)),
    ]).then(() => undefined);
  }

  /** Subscribes to new nodes, drops removed ones, and marks silent nodes offline. */
  async sync(): Promise<void> {
    const nodes = await this.nodes.list();
    const seen = new Set<number>();
    for (const node of nodes) {
      seen.add(node.id);
      const key = `${node.address}|${node.token}`;
      const sub = this.subs.get(node.id);
      if (sub && sub.key === key) continue;
      if (sub) this.close(sub);
      const fresh: Subscription = {
        key,
        call: undefined,
        retryTimer: undefined,
        failures: 0,
        reconciled: false,
      };
      this.subs.set(node.id, fresh);
      this.subscribe(node, fresh);
    }
    for (const [id, sub] of this.subs) {
      if (!seen.has(id)) {
        this.close(sub);
        this.subs.delete(id);
      }
    }
    await this.nodes.markStaleOffline(this.options.offlineAfterMs);
    for (const id of (await this.options.upgrades?.expire().catch((err) => {
      this.options.log('timed-out upgrades not checked', err);
      return [];
    })) ?? []) {
      this.options.log(`node ${id}: the upgrade timed out`);
    }
    await this.nodes.pruneGpuSamples();
    // Connected nodes' inventories, each at its interval: a GPU that fails or goes is seen.
    const every = this.options.inventoryIntervalMs ?? 30_000;
    const due = nodes.filter((node) => {
      const sub = this.subs.get(node.id);
      if (!sub?.reconciled || node.status === 'offline' || this.inventoryRuns.has(node.id)) return false;
      return Date.now() - (this.inventoryAt.get(node.id) ?? 0) >= every;
    });
    // Spread over the sync interval (oldest first): a fleet that connected at once is otherwise
    // due at once, and a thousand reads in one burst keep the API waiting behind them.
    due.sort((a, b) => (this.inventoryAt.get(a.id) ?? 0) - (this.inventoryAt.get(b.id) ?? 0));
    const spacing = due.length > 1 ? Math.min(this.options.syncIntervalMs, every) / due.length : 0;
    due.forEach((node, i) => {
      void this.refreshInventory(node, Math.floor(i * spacing)).catch((err) =>
        this.options.log(`inventory of node ${node.name} not read`, err),
      );
    });
    // Each container's GPU samples, as the nodes' above: rolled up into 5-minute spans and pruned
    // (last: a replica's first roll-up of a large fleet takes seconds).
    await this.containers
      .maintainGpuSamples()
      .catch((err) => this.options.log('GPU samples of containers not rolled up', err));
  }

  /**
   * Follows this node now, on a new channel (a node that just joined and answered): not at the
   * next sync, nor after the backoff of a subscription that failed while its agent was not up.
   */
  async connectNow(nodeId: number): Promise<void> {
    if (this.stopped) return;
    const node = await this.nodes.find(nodeId);
    if (!node || this.stopped) return;
    const old = this.subs.get(node.id);
    if (old) this.close(old);
    this.agents.forget(node);
    const fresh: Subscription = {
      key: `${node.address}|${node.token}`,
      call: undefined,
      retryTimer: undefined,
      failures: 0,
      reconciled: false,
    };
    this.subs.set(node.id, fresh);
    this.subscribe(node, fresh);
  }

  /**
   * Reads the node's inventory again (GPUs by UUID, their health) and tells the owners of the
   * containers holding a GPU that became unusable (once per container and moment). `delayMs`:
   * a periodic read's place in its sync (none after a stop).
   */
  refreshInventory(node: NodeRow, delayMs = 0): Promise<void> {
    const previous = this.inventoryRuns.get(node.id) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(() =>
        delayMs > 0 ? new Promise<void>((resolve) => setTimeout(resolve, delayMs).unref()) : undefined,
      )
      .then(async () => {
        if (this.stopped && delayMs > 0) return;
        // The agent is asked outside the limit: a node slow to answer holds no connection.
        let info: HostInfo__Output;
        try {
          info = await this.agents.get(node).getHostInfo(INVENTORY_TIMEOUT_MS);
        } catch (err) {
          this.recordError(node, `读取主机信息失败：${errorText(err)}`);
          throw err;
        }
        if (this.errored.has(node.id)) this.clearError(node);
        await this.nodeWork.run(async () => {
          const became = await this.nodes.applyHostInfo(node, info);
          this.inventoryAt.set(node.id, Date.now());
          await this.notifyGpuProblems(node, became);
        });
      });
    this.inventoryRuns.set(node.id, run);
    const forget = () => {
      if (this.inventoryRuns.get(node.id) === run) this.inventoryRuns.delete(node.id);
    };
    run.then(forget, forget);
    return run;
  }

  private async notifyGpuProblems(node: NodeRow, became: GpuTransition[]): Promise<void> {
    if (became.length === 0) return;
    for (const g of became) {
      this.options.log(`node ${node.name}: GPU ${g.gpu_index} (${g.uuid}) unusable: ${gpuProblemText(g)}`);
    }
    const byUuid = new Map(became.map((g) => [g.uuid, g]));
    const holders = await this.containers.gpuHolders(
      node.id,
      became.map((g) => g.uuid),
    );
    const byContainer = new Map<string, GpuTransition[]>();
    for (const h of holders) {
      const gpu = byUuid.get(h.gpu_uuid);
      if (gpu) byContainer.set(h.container_id, [...(byContainer.get(h.container_id) ?? []), gpu]);
    }
    for (const [containerId, gpus] of byContainer) {
      const problem = gpus
        .sort((a, b) => a.gpu_index - b.gpu_index)
        .map((g) => gpuProblemText(g))
        .filter(Boolean)
        .join('；');
      const since = new Date(Math.min(...gpus.map((g) => g.since.getTime())));
      await this.options.notices
        ?.gpuProblem(containerId, since, problem)
        .catch((err) => this.options.log(`GPU notice for ${containerId} not sent`, err));
    }
  }

  /**
   * The node's last error (shown in 节点), written by this monitor; cleared when a call succeeds.
   * A node that stays unreachable fails every retry: the same error is written again only after
   * a minute (its time stays near), so a fleet of dead nodes does not write on every retry.
   */
  private recordError(node: NodeRow, error: string): void {
    const last = this.errored.get(node.id);
    if (last && last.error === error && Date.now() - last.at < ERROR_REWRITE_MS) return;
    this.errored.set(node.id, { error, at: Date.now() });
    this.nodes
      .recordError(node.id, error)
      .catch((err) => this.options.log(`last error of node ${node.name} not written`, err));
  }

  private clearError(node: NodeRow): void {
    this.errored.delete(node.id);
    this.nodes
      .clearError(node.id)
      .catch((err) => this.options.log(`last error of node ${node.name} not cleared`, err));
  }

  private close(sub: Subscription): void {
    if (sub.retryTimer) clearTimeout(sub.retryTimer);
    sub.call?.cancel();
    sub.call = undefined;
  }

  private subscribe(node: NodeRow, sub: Subscription): void {
    if (this.stopped) return;
    const call = this.agents.get(node).watchEvents({
      heartbeatIntervalMs: this.options.heartbeatIntervalMs,
      gpuSampleIntervalMs: this.options.gpuSampleIntervalMs,
    });
    sub.call = call;
    sub.reconciled = false;
    sub.admission = this.admit(node).then(
      (refused) => {
        if (!refused) return true;
        if (sub.call === call) {
          // Kept offline (its facts say so) and asked again later: an upgraded agent is taken.
          sub.call = undefined;
          call.cancel();
          this.options.log(`node ${node.name}: refused, ${refused}`);
          sub.retryTimer = setTimeout(() => this.subscribe(node, sub), REFUSED_RETRY_MS);
        }
        return false;
      },
      (err: unknown) => {
        if (sub.call === call && !this.stopped) {
          this.options.log(`node ${node.name}: host info not read`, err);
          retry('host info not read');
          call.cancel();
        }
        return false;
      },
    );
    call.on('data', (event: AgentEvent__Output) => {
      sub.failures = 0;
      this.handle(node, sub, event).catch((err) =>
        this.options.log(`event from node ${node.name} failed`, err),
      );
    });
    const retry = (reason: string) => {
      if (this.stopped || sub.call !== call) return;
      sub.call = undefined;
      sub.failures++;
      const delay = Math.min(30_000, 1000 * 2 ** Math.min(sub.failures, 5));
      if (sub.failures === 1) this.options.log(`node ${node.name}: event stream lost (${reason}), retrying`);
      sub.retryTimer = setTimeout(() => this.subscribe(node, sub), delay);
    };
    call.on('error', (err: grpc.ServiceError) => {
      if (err.code === grpc.status.CANCELLED) return;
      if (!this.stopped && sub.call === call)
        this.recordError(node, `事件流中断：${err.details || err.message}`);
      retry(err.details || err.message);
    });
    call.on('end', () => retry('stream ended'));
  }

  /**
   * Reads the node's host info (versions, GPUs) first on every connection; returns why the node
   * is refused ('' when it is not: an upgrade to the build it reports is then over).
   */
  private async admit(node: NodeRow): Promise<string> {
    await this.refreshInventory(node);
    const row = await this.nodes.find(node.id);
    const refused = incompatibleReason(row?.agent_protocol);
    if (!refused && row?.agent_build && row.upgrading_since) {
      if (await this.options.upgrades?.settle(node.id, { agentBuild: row.agent_build })) {
        this.options.log(`node ${node.name}: upgraded to ${row.agent_version}-${row.agent_build}`);
      }
    }
    return refused;
  }

  private async handle(node: NodeRow, sub: Subscription, event: AgentEvent__Output): Promise<void> {
    if (!(await (sub.admission ?? true))) return;
    if (event.heartbeat) {
      await this.nodes.heartbeat(node.id, event.heartbeat.dockerAvailable);
      if (!sub.reconciled) {
        sub.reconciled = true;
        // Connected again: an error recorded before (by any replica) is over.
        this.clearError(node);
        await this.reconcile(node);
      }
    } else if (event.container) {
      // An event may come from a container that has since been replaced (a reconfigure
      // recreates it under the same platform id): ask Docker for the state now.
      const id = event.container.containerId;
      const observedAt = new Date();
      let status: ReturnType<typeof statusFromAgent>;
      let facts: AgentFacts = {};
      try {
        const info = await this.agents.get(node).inspectContainer(id);
        status = statusFromAgent(info);
        facts = agentFacts(info);
      } catch (err) {
        if (!(err instanceof AgentCallError && err.code === grpc.status.NOT_FOUND)) throw err;
        status = 'not_found';
      }
      // Docker is stopping or replacing the container (a stop, a port change): that it still
      // runs at this instant says nothing; the event that ends the change settles it.
      if (status === 'running' && LEAVING_ACTIONS.has(event.container.action)) return;
      await this.containers.applyAgentState(id, status, observedAt, facts);
    } else if (event.gpuSample) {
      // The node's samples, and each container's share of them (监控, written per minute).
      this.containers.recordGpuSample(node.id, event.gpuSample);
      await this.nodes.recordGpuSample(node.id, event.gpuSample);
    } else if (event.reconcile) {
      // When the agent listed them (its clock), never later than now (ours).
      const listedAt = Number(event.reconcile.timeUnixMs) || Date.now();
      await this.applyReport(node, event.reconcile.containers, new Date(Math.min(listedAt, Date.now())));
    }
  }

  /** After a (re)connection: refresh the inventory and take Docker's word on each container. */
  private async reconcile(node: NodeRow): Promise<void> {
    // The inventory was read on this connection before any event was applied (admit).
    await this.options.images
      ?.refresh(node)
      .catch((err) => this.options.log(`images of node ${node.name} not listed`, err));
    const observedAt = new Date();
    await this.applyReport(node, await this.agents.get(node).listContainers(), observedAt);
  }

  /**
   * Docker is the truth: rows follow what the agent reports, rows whose container vanished
   * become not_found, and labelled containers without a row are recorded for admins.
   */
  private applyReport(node: NodeRow, reported: ContainerInfo__Output[], observedAt: Date): Promise<void> {
    return this.nodeWork.run(() => this.applyReportNow(node, reported, observedAt));
  }

  private async applyReportNow(
    node: NodeRow,
    reported: ContainerInfo__Output[],
    observedAt: Date,
  ): Promise<void> {
    // First what they hold (ports, GPUs), while the rows still carry the statuses of before.
    await this.containers.adoptReported(node, reported, observedAt);
    const byId = new Map(reported.map((c) => [c.containerId, c]));
    for (const row of await this.containers.liveOnNode(node.id)) {
      const info = byId.get(row.id);
      await this.containers.applyAgentState(
        row.id,
        info ? statusFromAgent(info) : 'not_found',
        observedAt,
        info ? agentFacts(info) : {},
        row,
      );
    }
    // Containers of purchases the platform ended (a node that died mid-create made one anyway).
    await this.containers.reapEnded(
      node,
      reported.map((c) => c.containerId),
    );
    const known = new Set(await this.containers.knownIdsOnNode(node.id));
    const found = await this.nodes.recordUnknownContainers(node.id, reported, known);
    for (const u of found)
      this.options.log(
        `node ${node.name}: unknown labelled container ${u.container_id} (${u.state}), left untouched`,
      );
  }
}
