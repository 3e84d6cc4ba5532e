import type { RegistryAuth } from '@gpucloud/proto';
import { agentError } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import type { NodeRow } from '../nodes/repository.js';
import { type ImageContents, imageContents } from './contract.js';
import type { RegistryGrant } from './registry.js';
import type { ImagesRepository } from './repository.js';

/** Tag every save pushes (the name and tag users see are metadata: renaming never re-tags). */
export const PUSHED_TAG = 'v1';
export const MSG_SAVE_INTERRUPTED = '保存中断，请重试';
/** At most one progress write a second: the console polls every second. */
const PROGRESS_WRITE_MS = 1000;

export const grantToAuth = (g: RegistryGrant): RegistryAuth => ({
  serverAddress: g.server_address,
  username: g.username,
  password: g.password,
});

export interface SaveJob {
  imageId: number;
  node: NodeRow;
  containerId: string;
  baseImage: string;
  description: string;
  /** `<registry host>/<repository>` */
  target: string;
  auth: RegistryAuth;
}

export interface ImageSaverDeps {
  repo: ImagesRepository;
  agents: AgentPool;
  leaseMs: number;
  log: (message: string, err?: unknown) => void;
}

/**
 * The saves this process runs in the background (they outlive the request that asked): each
 * follows the agent's SaveImage stream, writes its progress at most once a second, holds a lease
 * on its row so other replicas know it is alive, and ends the row as ready or failed.
 */
export class ImageSaver {
  private readonly running = new Map<number, { abort: AbortController; done: Promise<void> }>();

  constructor(private readonly d: ImageSaverDeps) {}

  start(job: SaveJob): void {
    const abort = new AbortController();
    const done = this.run(job, abort.signal)
      .catch((err) => this.d.log(`save of image ${job.imageId} failed unexpectedly`, err))
      .finally(() => this.running.delete(job.imageId));
    this.running.set(job.imageId, { abort, done });
  }

  /** Resolves once the saves of this process are settled. */
  async settled(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stops every save of this process (shutdown): each ends as failed (保存中断，请重试). */
  async stop(): Promise<void> {
    for (const r of this.running.values()) r.abort.abort();
    await this.settled();
  }

  private async run(job: SaveJob, signal: AbortSignal): Promise<void> {
    const { repo, log } = this.d;
    const lease = setInterval(() => {
      repo
        .renewLease(job.imageId, new Date(Date.now() + this.d.leaseMs))
        .catch((e) => log(`save lease of image ${job.imageId} not renewed`, e));
    }, this.d.leaseMs / 4);
    lease.unref();
    let shown = 0;
    let shownAt = 0;
    let writes = Promise.resolve();
    try {
      const last = await this.d.agents.get(job.node).saveImage(
        {
          containerId: job.containerId,
          repository: job.target,
          tag: PUSHED_TAG,
          auth: job.auth,
          baseImage: job.baseImage,
          description: job.description,
        },
        (p) => {
          const percent = Math.max(0, Math.min(99, Math.floor(p.percent)));
          if (p.done || percent <= shown || Date.now() - shownAt < PROGRESS_WRITE_MS) return;
          shown = percent;
          shownAt = Date.now();
          writes = writes
            .then(() => repo.setProgress(job.imageId, percent))
            .catch((e) => log(`save progress of image ${job.imageId} not written`, e));
        },
        signal,
      );
      await writes;
      if (!/^sha256:[0-9a-f]{64}$/.test(last.digest)) {
        throw new Error(`the node answered no digest (${last.digest || 'empty'})`);
      }
      const saved = await repo.finish(job.imageId, {
        digest: last.digest,
        size_bytes: Number(last.sizeBytes) || 0,
        contents: this.contents(job.imageId, last.contentsJson),
      });
      if (!saved) log(`image ${job.imageId} was saved after its row stopped saving`);
    } catch (err) {
      await writes;
      const reason = signal.aborted
        ? MSG_SAVE_INTERRUPTED
        : `保存镜像失败：${agentError(err, '节点未完成保存').detail}`;
      log(`save of image ${job.imageId} on ${job.node.name} failed: ${reason}`, err);
      await repo.fail(job.imageId, reason);
    } finally {
      clearInterval(lease);
    }
  }

  /** The agent's record of what is inside; null (logged) when it does not parse. */
  private contents(imageId: number, json: string): ImageContents | null {
    if (!json) return null;
    try {
      const parsed = imageContents.safeParse(JSON.parse(json));
      if (parsed.success) return parsed.data;
      this.d.log(`contents of image ${imageId} do not parse`, parsed.error.issues[0]);
    } catch (err) {
      this.d.log(`contents of image ${imageId} are not JSON`, err);
    }
    return null;
  }
}
