// 删除中 n%: a volume's delete runs after the request has answered. The node measures the
// volume, then removes it, telling how far it is; the row keeps the percentage for the console
// and goes, with its share of the quota, once the directory is gone. The process running a delete
// holds a lease on the row and renews it; a delete whose lease runs out (the process died, or
// stopped and let go) is taken over by any replica, which asks the node again: the node's delete
// is idempotent and a second call follows the one under way. A node that refuses or fails puts
// the volume back with the reason; a node that cannot be reached keeps it 删除中 and is asked
// again, for up to GIVE_UP_MS.
import type { DeleteVolumeProgress__Output } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import { AgentCallError } from '../../agents/agent-client.js';
import { agentError, outcomeUnknown } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { NodesService } from '../nodes/service.js';
import type { VolumeRow, VolumesRepository } from './repository.js';

/** The directory name of a volume on its node: stable across renames. */
export const agentVolumeName = (id: number) => `v${id}`;

export const MSG_VOLUME_IN_USE = '该存储卷已被容器使用，无法删除';
/** A delete the node could not be reached for this long is given up (the volume is put back). */
const GIVE_UP_MS = 30 * 60_000;
export const MSG_DELETE_UNREACHABLE = '存储节点长时间无法连接，删除未完成，请稍后重试';

/**
 * The percentage of a delete from the node's counts: the mean of the entries and the bytes removed
 * of what was measured first (many small files weigh by number, big ones by size); 0 while
 * measuring, at most 99 until the node says it is done.
 */
export function deletePercent(
  p: Pick<DeleteVolumeProgress__Output, 'phase' | 'filesDone' | 'filesTotal' | 'bytesDone' | 'bytesTotal'>,
): number {
  if (p.phase !== 'deleting') return 0;
  const parts: number[] = [];
  const filesTotal = Number(p.filesTotal);
  const bytesTotal = Number(p.bytesTotal);
  if (filesTotal > 0) parts.push(Math.min(1, Number(p.filesDone) / filesTotal));
  if (bytesTotal > 0) parts.push(Math.min(1, Number(p.bytesDone) / bytesTotal));
  if (parts.length === 0) return 0;
  const mean = parts.reduce((a, b) => a + b, 0) / parts.length;
  return Math.min(99, Math.floor(mean * 100));
}

export interface VolumeDeletionDeps {
  repo: VolumesRepository;
  nodes: Pick<NodesService, 'find'>;
  agents: AgentPool;
  leaseMs: number;
  log: (message: string, err?: unknown) => void;
}

export class VolumeDeletions {
  /** Deletes this process follows now, by volume id. */
  private readonly running = new Map<number, { stop: AbortController; done: Promise<void> }>();

  constructor(private readonly d: VolumeDeletionDeps) {}

  /** Follows the delete of a row marked 删除中 (and leased to this process) in the background. */
  start(row: VolumeRow): void {
    if (this.running.has(row.id)) return;
    const stop = new AbortController();
    const done = this.run(row, stop.signal)
      .catch((err) => this.d.log(`delete of volume ${row.id} failed unexpectedly`, err))
      .finally(() => this.running.delete(row.id));
    this.running.set(row.id, { stop, done });
  }

  /** Takes over the deletes whose lease ran out (a process died or let go); how many it took. */
  async recoverAbandoned(now = new Date()): Promise<number> {
    const rows = await this.d.repo.claimAbandonedDeletes(now, new Date(now.getTime() + this.d.leaseMs));
    for (const row of rows) this.start(row);
    return rows.length;
  }

  /** Resolves once the deletes this process follows are over (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /**
   * Shutdown: stops following the deletes (the nodes go on with them) and lets their leases go,
   * so the next process, or another replica, takes them over at once.
   */
  async stop(): Promise<void> {
    const running = [...this.running.entries()];
    for (const [, r] of running) r.stop.abort();
    await Promise.all(running.map(([, r]) => r.done));
    await Promise.all(
      running.map(([id]) =>
        this.d.repo
          .renewDeleteLease(id, new Date())
          .catch((err) => this.d.log(`lease of the delete of volume ${id} not let go`, err)),
      ),
    );
  }

  private async run(row: VolumeRow, signal: AbortSignal): Promise<void> {
    const lease = setInterval(() => {
      this.d.repo
        .renewDeleteLease(row.id, new Date(Date.now() + this.d.leaseMs))
        .catch((err) => this.d.log(`lease of the delete of volume ${row.id} not renewed`, err));
    }, this.d.leaseMs / 4);
    lease.unref();
    let writes = Promise.resolve();
    try {
      const node = await this.d.nodes.find(row.node_id);
      if (!node) {
        // The node is gone (a node with volumes cannot be removed, so only by hand): so is the data.
        await this.d.repo.delete(row.id);
        return;
      }
      const agent = this.d.agents.get(node);
      const ownerId = String(row.user_id);
      const name = agentVolumeName(row.id);
      let shown = row.delete_progress ?? 0;
      let shownAt = 0;
      try {
        await agent.deleteVolumeWithProgress(
          ownerId,
          name,
          (progress) => {
            const percent = deletePercent(progress);
            // At most one write a second: the console polls every second or two.
            if (percent <= shown || Date.now() - shownAt < 1000) return;
            shown = percent;
            shownAt = Date.now();
            writes = writes
              .then(() => this.d.repo.setDeleteProgress(row.id, percent))
              .catch((err) => this.d.log(`progress of the delete of volume ${row.id} not saved`, err));
          },
          signal,
        );
      } catch (err) {
        // An agent older than the streaming call: the plain delete, without progress.
        if (!(err instanceof AgentCallError && err.code === grpc.status.UNIMPLEMENTED)) throw err;
        await agent.deleteVolume(ownerId, name, 6 * 3600_000);
      }
      await writes;
      await this.d.repo.delete(row.id);
    } catch (err) {
      await writes;
      if (signal.aborted) return; // this process stops: the lease goes, another one takes over
      if (outcomeUnknown(err)) {
        const since = row.deleting_since?.getTime() ?? Date.now();
        if (Date.now() - since < GIVE_UP_MS) {
          // The node did not answer: still 删除中; asked again when the lease runs out.
          this.d.log(`delete of volume ${row.id} not finished, asked again later`, err);
          return;
        }
        await this.d.repo.unmarkDeleting(row.id, MSG_DELETE_UNREACHABLE);
        return;
      }
      const failure = agentError(err, '删除存储卷失败');
      // The node still sees a container using it (one the platform no longer knows, say).
      const inUse = failure.status === 409 && failure.detail.includes('正被容器');
      await this.d.repo.unmarkDeleting(row.id, inUse ? MSG_VOLUME_IN_USE : failure.detail);
    } finally {
      clearInterval(lease);
    }
  }
}
