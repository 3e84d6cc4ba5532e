// A container's share of the node when the request names no limit: CPUs in proportion to the
// GPUs it rents (the control plane sends no nano_cpus today), and a size limit of its writable
// layer where the storage driver can enforce one.
import type { ContainerClient } from '../docker/container-client.js';
import { errorMessage } from '../errors.js';

/**
 * Nano-CPUs for a container of `gpuCount` GPUs on a node of `totalGpus` GPUs and `hostCpus`
 * CPUs: the GPUs' share of the CPUs, a GPU-less container one GPU's share, never below one CPU
 * (or the whole host when it has fewer). 0 (no limit) on a node without GPUs.
 */
export function cpuShareNanoCpus(gpuCount: number, totalGpus: number, hostCpus: number): number {
  if (totalGpus <= 0 || hostCpus <= 0) return 0;
  const share = (hostCpus * Math.min(Math.max(gpuCount, 1), totalGpus)) / totalGpus;
  return Math.round(Math.max(share, Math.min(1, hostCpus)) * 1e9);
}

/** Docker's probe of StorageOpt size: '' when supported, else Docker's refusal. */
export type StorageSizeProbe = (image: string, size: string) => Promise<string>;

/**
 * The writable-layer limit (`--container-layer-size`), once Docker has shown it can enforce it.
 * The first create probes it (a container that never runs); until then, and where the driver
 * cannot, containers get no limit and `warning` says so.
 */
export class StorageLimit {
  private result: Promise<string> | undefined;
  private refusal = '';

  constructor(
    private readonly size: string,
    private readonly probe: StorageSizeProbe | undefined,
    private readonly log?: (line: string) => void,
  ) {}

  /** Probes with `image` (once), e.g. at the agent's start with an image the engine holds. */
  async check(image: string): Promise<void> {
    if (!this.size || !this.probe) return;
    this.result ??= this.probe(image, this.size).then(
      (refusal) => {
        // Not logged: HostInfo's warnings carry it (and the agent's first line stays its address).
        this.refusal = refusal;
        return refusal;
      },
      (err: unknown) => {
        this.result = undefined; // try again with the next image
        throw err;
      },
    );
    await this.result.catch((err: unknown) => this.log?.(`storage size probe failed: ${errorMessage(err)}`));
  }

  /** The StorageOpt size for a container of `image`; undefined = no limit. */
  async sizeFor(image: string): Promise<string | undefined> {
    if (!this.size || !this.probe) return undefined;
    await this.check(image);
    return this.result && !this.refusal ? this.size : undefined;
  }

  /** The configured allowance in bytes (0 = none configured), whether or not Docker enforces it. */
  get allowanceBytes(): number {
    return layerSizeBytes(this.size);
  }

  /** Docker enforces the allowance: writable layers need not be measured. */
  get enforced(): boolean {
    return Boolean(this.size && this.probe && this.result && !this.refusal);
  }

  /** A warning for HostInfo ('' when the layers are limited, or no limit is configured). */
  get warning(): string {
    return this.refusal
      ? `容器可写层大小无法限制, 用户可写满 Docker 数据盘 (the storage driver cannot limit a container's writable layer: ${this.refusal}; overlay2 needs xfs with the pquota mount option)`
      : '';
  }
}

/** Probes with the first image the engine holds (the agent's start). */
export async function probeWithAnyImage(client: ContainerClient, storage: StorageLimit): Promise<void> {
  const images = await client.listImages().catch(() => []);
  const image = images.find((i) => i.tags.length > 0)?.tags[0];
  if (image) await storage.check(image);
}

/** `100G`, `512Mi`, `1.5TB` (Docker's binary units, as StorageOpt size reads them) → bytes; '' → 0. */
export function layerSizeBytes(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*$/i.exec(text);
  if (!m) return 0;
  const power = ['', 'K', 'M', 'G', 'T'].indexOf((m[2] ?? '').toUpperCase());
  return Math.round(Number(m[1]) * 1024 ** power);
}

export interface WritableLayersOptions {
  client: ContainerClient;
  storage: StorageLimit;
  /** The labels of this node's managed containers. */
  labels: string[];
  intervalMs: number;
  log?: (line: string) => void;
}

/**
 * Where Docker cannot limit a container's writable layer, its size is measured every
 * `intervalMs` (Docker's `size=true` walks every layer: seconds on big ones, so not at every
 * list) and reported with the container, so that its owner is warned before the node's Docker
 * disk fills up. Nothing is measured where the limit is enforced.
 */
export class WritableLayers {
  private sizes = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: WritableLayersOptions) {}

  /** Bytes in the container's writable layer at the last measurement; 0 = not measured. */
  bytes(dockerId: string): number {
    return this.sizes.get(dockerId) ?? 0;
  }

  get allowanceBytes(): number {
    return this.options.storage.allowanceBytes;
  }

  /** One measurement (one at a time; a call during one waits for it). */
  measure(): Promise<void> {
    this.running ??= (async () => {
      try {
        if (this.options.storage.enforced) {
          this.sizes = new Map();
          return;
        }
        this.sizes = await this.options.client.writableLayerSizes(this.options.labels);
      } catch (err) {
        this.options.log?.(`writable layers not measured: ${errorMessage(err)}`);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  start(): void {
    if (this.timer) return;
    void this.measure();
    this.timer = setInterval(() => void this.measure(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
