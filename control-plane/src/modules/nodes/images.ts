// Warm images: what each node holds, and warm-ups an admin starts (节点 → 镜像 → 预热), so a
// purchase of a catalogue image starts at once. The agent's ListImages is the truth about what
// is present; a warm-up's progress lives in node_images like a purchase's pull does in its
// container row, so every replica shows the same.
import type { ListImagesResponse__Output, RegistryAuth } from '@gpucloud/proto';
import { agentError } from '../../agents/agent-errors.js';
import type { AgentPool } from '../../agents/agent-pool.js';
import { PullProgress } from '../../agents/pull-progress.js';
import { badRequest, conflict, unavailable } from '../../framework/errors.js';
import type { NodeImageReply, NodeImagesReply } from './contract.js';
import type { ImageListing, NodeImageRow, NodeRow, NodesRepository } from './repository.js';
import type { NodesService } from './service.js';

/** The catalogue's images (owned by the catalogue module). */
export interface NodeImageCatalogue {
  catalogueImages(): Promise<{ image: string; versions: { id: number; label: string }[] }[]>;
}

export type NodeImageView = NodeImageReply;
export type NodeImagesView = NodeImagesReply;

/** A pulling row untouched this long, with no pull on the node, was left by a process that died. */
const STALE_PULL_MS = 60_000;

/**
 * A reference as Docker lists it (RepoTags): `ubuntu` is `ubuntu:latest`, and Docker Hub's
 * `docker.io/library/` goes. Rows are kept under this form; a digest reference stays as it is.
 */
export function listedRef(ref: string): string {
  if (ref.includes('@')) return ref;
  const short = ref.replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\/(library\/)?/, '');
  const name = short.slice(short.lastIndexOf('/') + 1);
  return name.includes(':') ? short : `${short}:latest`;
}

export function listingFromAgent(res: ListImagesResponse__Output): ImageListing {
  return {
    images: res.images.flatMap((i) => i.tags.map((tag) => ({ tag, sizeBytes: Number(i.sizeBytes) }))),
    pulling: res.pulling,
    diskTotalBytes: Number(res.diskTotalBytes),
    diskFreeBytes: Number(res.diskFreeBytes),
  };
}

export class NodeImagesService {
  /** Warm-ups this process runs, by `${nodeId} ${image}`. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly d: {
      repo: NodesRepository;
      agents: AgentPool;
      nodes: NodesService;
      catalogue: NodeImageCatalogue;
      /** Pull credentials for an image of the platform's registry (a published saved image). */
      pullAuth?: (image: string) => Promise<RegistryAuth | undefined>;
      log: (message: string, err?: unknown) => void;
    },
  ) {}

  /** Asks the node what it holds and records it. */
  async refresh(node: NodeRow): Promise<void> {
    const listing = listingFromAgent(await this.d.agents.get(node).listImages());
    await this.d.repo.applyListing(node.id, listing, new Date(Date.now() - STALE_PULL_MS));
  }

  /** Whether the node held the image when it last said (a purchase then needs no pull). */
  async isPresent(nodeId: number, image: string): Promise<boolean> {
    return (await this.d.repo.image(nodeId, listedRef(image)))?.status === 'present';
  }

  /** Framework versions whose image each of these nodes holds (the market's 秒级启动), by node. */
  async warmVersionIds(nodeIds: number[]): Promise<Map<number, number[]>> {
    if (nodeIds.length === 0) return new Map();
    const [present, catalogue] = await Promise.all([
      this.d.repo.presentImages(nodeIds),
      this.d.catalogue.catalogueImages(),
    ]);
    const warm = new Map<number, number[]>();
    for (const [nodeId, images] of present) {
      warm.set(
        nodeId,
        catalogue.filter((c) => images.has(listedRef(c.image))).flatMap((c) => c.versions.map((v) => v.id)),
      );
    }
    return warm;
  }

  /** The catalogue's images on the node (held or not), then the other images it holds. */
  async view(nodeId: number): Promise<NodeImagesView> {
    const node = await this.d.nodes.require(nodeId);
    if (node.status !== 'offline') {
      await this.refresh(node).catch((err) => this.d.log(`images of node ${node.name} not listed`, err));
    }
    const [rows, catalogue, fresh] = await Promise.all([
      this.d.repo.images(nodeId),
      this.d.catalogue.catalogueImages(),
      this.d.nodes.require(nodeId),
    ]);
    const byImage = new Map(rows.map((r) => [r.image, r]));
    const items: NodeImageView[] = catalogue.map((c) =>
      imageView(
        c.image,
        byImage.get(listedRef(c.image)),
        c.versions.map((v) => v.label),
      ),
    );
    const listed = new Set(catalogue.map((c) => listedRef(c.image)));
    for (const row of rows) if (!listed.has(row.image)) items.push(imageView(row.image, row, []));
    return {
      items,
      total: items.length,
      disk_total_bytes: fresh.image_disk_total_bytes === null ? null : Number(fresh.image_disk_total_bytes),
      disk_free_bytes: fresh.image_disk_free_bytes === null ? null : Number(fresh.image_disk_free_bytes),
      listed_at: fresh.images_listed_at ? fresh.images_listed_at.toISOString() : null,
    };
  }

  /**
   * Starts pulling a catalogue image on the node (预热); answers at once. The progress shows in
   * view() (预热中 n%), then the image is present, or failed with the reason.
   */
  async warm(nodeId: number, image: string): Promise<NodeImageView> {
    const node = await this.d.nodes.require(nodeId);
    const entry = (await this.d.catalogue.catalogueImages()).find((c) => c.image === image);
    if (!entry) throw badRequest('该镜像不在镜像目录中', 'IMAGE_NOT_IN_CATALOGUE');
    if (node.status === 'offline') throw unavailable('节点离线，无法预热镜像', 'NODE_OFFLINE');
    const key = listedRef(image);
    const row = await this.d.repo.image(nodeId, key);
    if (row?.status === 'present') throw conflict('该镜像已在节点上', 'IMAGE_PRESENT');
    if (!(await this.d.repo.claimWarmUp(nodeId, key))) {
      const now = await this.d.repo.image(nodeId, key);
      if (now?.status === 'present') throw conflict('该镜像已在节点上', 'IMAGE_PRESENT');
      throw conflict('该镜像正在预热', 'IMAGE_PULLING');
    }
    const running = `${nodeId} ${key}`;
    const run = this.pull(node, image)
      .catch((err) => this.d.log(`warm-up of ${image} on ${node.name} failed unexpectedly`, err))
      .finally(() => this.running.delete(running));
    this.running.set(running, run);
    return imageView(
      image,
      await this.d.repo.image(nodeId, key),
      entry.versions.map((v) => v.label),
    );
  }

  /** Resolves once the warm-ups this process runs are over (tests, shutdown). */
  async settled(): Promise<void> {
    await Promise.all(this.running.values());
  }

  private async pull(node: NodeRow, image: string): Promise<void> {
    const key = listedRef(image);
    const progress = new PullProgress();
    let shown = 0;
    let shownPhase = progress.phase;
    let shownAt = 0;
    let writes = Promise.resolve();
    try {
      const auth = await this.d.pullAuth?.(image);
      await this.d.agents.get(node).pullImage(
        image,
        (message) => {
          const percent = progress.add(message);
          const phase = progress.phase;
          // At most one write a second: the console polls every few seconds.
          const same = percent === shown && phase === shownPhase;
          if (same || percent === 100 || Date.now() - shownAt < 1000) return;
          shown = percent;
          shownPhase = phase;
          shownAt = Date.now();
          writes = writes
            .then(() => this.d.repo.setImageState(node.id, key, { progress: percent, pull_phase: phase }))
            .catch((e) => this.d.log(`warm-up progress of ${image} not saved`, e));
        },
        undefined,
        auth,
      );
      await writes;
      // The node's listing makes it present with its size in one write; without a listing, the
      // pull's own word does (the size follows at the next listing).
      await this.refresh(node).catch((err) => this.d.log(`images of node ${node.name} not listed`, err));
      if ((await this.d.repo.image(node.id, key))?.status !== 'present') {
        await this.d.repo.setImageState(node.id, key, { status: 'present', progress: 100, error: null });
      }
    } catch (err) {
      await writes;
      const reason = agentError(err, '镜像拉取失败').detail;
      await this.d.repo.setImageState(node.id, key, { status: 'failed', error: reason });
    }
  }
}

function imageView(image: string, row: NodeImageRow | undefined, versions: string[]): NodeImageView {
  return {
    image,
    versions,
    in_catalogue: versions.length > 0,
    status: row?.status ?? 'absent',
    progress: row?.status === 'present' ? 100 : (row?.progress ?? 0),
    pull_phase:
      row?.status === 'pulling' ? (row.pull_phase === 'extracting' ? 'extracting' : 'downloading') : null,
    size_bytes: row?.size_bytes == null ? null : Number(row.size_bytes),
    error: row?.error ?? null,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}
