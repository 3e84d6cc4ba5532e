// What the agent's metrics read of the host: a GPU sample (nvidia-smi, or the simulated load) and
// the managed containers' usage (one inspect and one stats read each). Read at most once per
// `maxAgeMs` and kept between scrapes, so Prometheus scraping often, or several at once, costs
// the host no more than one reading per interval.
import type { ContainerClient, ContainerUsage } from '../docker/container-client.js';
import { gpusFromLabel, LABELS, MANAGED_FILTER } from '../docker/labels.js';
import { errorMessage } from '../errors.js';
import type { GpuDevice, GpuProbe } from '../gpu/gpu-probe.js';
import { matchGpus } from '../gpu/gpu-probe.js';

export interface ContainerReading {
  /** The platform's container id (gpucloud.container-id). */
  containerId: string;
  usage: ContainerUsage;
}

export interface Readings {
  /** When this reading was taken (ms since the epoch). */
  atMs: number;
  /** Undefined when the sample failed (then logged). */
  gpus: GpuDevice[] | undefined;
  /** GPU uuid → the platform container holding it (running, paused or restarting). */
  holders: Map<string, string>;
  /** Undefined when Docker could not be read (then logged). */
  containers: ContainerReading[] | undefined;
  /** What failed in this reading. */
  failures: ('gpus' | 'containers')[];
}

/** Containers whose usage is read at once. */
const CONCURRENCY = 4;
const HOLDING_STATES = new Set(['running', 'paused', 'restarting']);

export class AgentReadings {
  private last: Readings | undefined;
  private pending: Promise<Readings> | undefined;

  constructor(
    private readonly d: {
      client: Pick<ContainerClient, 'listContainers' | 'containerUsage'>;
      gpus: Pick<GpuProbe, 'sample'>;
      nodeName: string;
      maxAgeMs: number;
      log: (line: string) => void;
      now?: () => number;
    },
  ) {}

  /** The last reading when it is younger than maxAgeMs, else a new one (shared by concurrent scrapes). */
  read(): Promise<Readings> {
    const now = (this.d.now ?? Date.now)();
    if (this.last && now - this.last.atMs < this.d.maxAgeMs) return Promise.resolve(this.last);
    this.pending ??= this.take(now).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async take(atMs: number): Promise<Readings> {
    const [gpus, containers] = await Promise.allSettled([this.d.gpus.sample(), this.containers()]);
    const failures: Readings['failures'] = [];
    if (gpus.status === 'rejected') {
      failures.push('gpus');
      this.d.log(`metrics: the GPUs could not be sampled: ${errorMessage(gpus.reason)}`);
    }
    if (containers.status === 'rejected') {
      failures.push('containers');
      this.d.log(`metrics: the containers' usage could not be read: ${errorMessage(containers.reason)}`);
    }
    const sample = gpus.status === 'fulfilled' ? gpus.value : undefined;
    const holders = new Map<string, string>();
    if (sample && containers.status === 'fulfilled') {
      for (const c of containers.value.holding) {
        for (const gpu of matchGpus(sample, c.gpuIds).found) holders.set(gpu.uuid, c.containerId);
      }
    }
    const reading: Readings = {
      atMs,
      gpus: sample,
      holders,
      containers: containers.status === 'fulfilled' ? containers.value.usage : undefined,
      failures,
    };
    this.last = reading;
    return reading;
  }

  private async containers(): Promise<{
    usage: ContainerReading[];
    holding: { containerId: string; gpuIds: string[] }[];
  }> {
    const listed = await this.d.client.listContainers({
      all: true,
      labels: [MANAGED_FILTER, `${LABELS.node}=${this.d.nodeName}`],
    });
    const managed = listed.filter((c) => c.labels[LABELS.containerId]);
    const holding = managed
      .filter((c) => HOLDING_STATES.has(c.state))
      .map((c) => ({
        containerId: c.labels[LABELS.containerId] as string,
        gpuIds: gpusFromLabel(c.labels[LABELS.gpus]),
      }));
    const usage: ContainerReading[] = [];
    for (let i = 0; i < managed.length; i += CONCURRENCY) {
      const batch = managed.slice(i, i + CONCURRENCY);
      const read = await Promise.all(batch.map((c) => this.d.client.containerUsage(c.dockerId)));
      batch.forEach((c, j) => {
        const u = read[j];
        // Removed since it was listed: nothing to report.
        if (u) usage.push({ containerId: c.labels[LABELS.containerId] as string, usage: u });
      });
    }
    return { usage, holding };
  }
}
