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
