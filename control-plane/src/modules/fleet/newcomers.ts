import type { HostInfo__Output } from '@gpucloud/proto';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { NodeRow } from '../nodes/repository.js';

export interface NewcomerWatchDeps {
  agents: Pick<AgentPool, 'transient'>;
  /** nodes: NodesService.applyHostInfo (the node becomes online with its GPUs). */
  nodes: { applyHostInfo(node: Pick<NodeRow, 'id'>, info: HostInfo__Output): Promise<unknown> };
  log: (message: string, err?: unknown) => void;
  /** How often a joined node is tried until its agent answers (1 s). */
  intervalMs?: number;
  /** How long it is tried (15 min; then the node monitor's sync follows it as any node). */
  giveUpAfterMs?: number;
}

/**
 * A node that just joined is offline until its agent starts (the install script starts it after
 * the join). This replica tries it every second, on a new channel each time (no reconnection
 * backoff), and as soon as it answers stores what it reports (online, its GPUs) and tells the
 * node monitor to follow it now: the node is in 节点 with its GPUs a second or two after its agent
 * is up, not at the monitor's next sync.
 */
export class NewcomerWatch {
  private readonly watching = new Map<number, NodeJS.Timeout | undefined>();
  private readonly listeners = new Set<(nodeId: number) => Promise<void> | void>();
  private stopped = false;

  constructor(private readonly d: NewcomerWatchDeps) {}

  /** Called once a newcomer answered and was stored (the node monitor follows it then). */
  onConnected(listener: (nodeId: number) => Promise<void> | void): void {
    this.listeners.add(listener);
  }

  watch(node: Pick<NodeRow, 'id' | 'name' | 'address' | 'token' | 'tls'>): void {
    if (this.stopped || this.watching.has(node.id)) return;
    const deadline = Date.now() + (this.d.giveUpAfterMs ?? 15 * 60_000);
    const every = this.d.intervalMs ?? 1000;
    this.watching.set(node.id, undefined);
    const attempt = async () => {
      if (this.stopped || !this.watching.has(node.id)) return;
      const client = this.d.agents.transient(node);
      let info: HostInfo__Output | undefined;
      try {
        info = await client.getHostInfo(Math.max(1000, every * 2));
      } catch {
        info = undefined;
      } finally {
        client.close();
      }
      if (this.stopped || !this.watching.has(node.id)) return;
      if (info) {
        this.watching.delete(node.id);
        try {
          await this.d.nodes.applyHostInfo(node, info);
          for (const listener of this.listeners) await listener(node.id);
          this.d.log(`node ${node.name} (joined) is connected`);
        } catch (err) {
          this.d.log(`joined node ${node.name} answered but was not stored`, err);
        }
        return;
      }
      if (Date.now() > deadline) {
        this.watching.delete(node.id);
        this.d.log(`joined node ${node.name} did not answer yet: the node monitor keeps trying`);
        return;
      }
      const timer = setTimeout(() => void attempt(), every);
      timer.unref();
      this.watching.set(node.id, timer);
    };
    void attempt();
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.watching.values()) if (timer) clearTimeout(timer);
    this.watching.clear();
  }
}
