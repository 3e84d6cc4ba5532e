// GPU probe of a real NVIDIA host: nvidia-smi for the GPUs, their health and topology and the
// driver version; Xid events from the kernel log (xid.ts) for the GPUs that broke since.
// One GPU that cannot be read never empties the node: it is listed, unhealthy, by uuid.
import { execFile } from 'node:child_process';
import { errorMessage } from '../errors.js';
import type { GpuDevice, GpuInventory, GpuProbe } from './gpu-probe.js';
import {
  type ListedGpu,
  parseDriverVersions,
  parseGpuList,
  parseGpuQuery,
  parseHelpQueryGpu,
  persistenceWarning,
  queryFieldsFor,
} from './nvidia-smi-parse.js';
import { type GpuTopology, parseTopology } from './topology.js';
import type { XidMonitor } from './xid.js';

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell; rejects when it cannot start, fails or runs too long. */
export type CommandRunner = (file: string, args: string[]) => Promise<CommandResult>;

export function execFileRunner(timeoutMs = 10_000): CommandRunner {
  return (file, args) =>
    new Promise((resolve, reject) => {
      execFile(file, args, { timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { stdout, stderr }));
        else resolve({ stdout, stderr });
      });
    });
}

/** The reason a command failed, with what nvidia-smi printed (its errors go to stdout). */
function failure(err: unknown): string {
  const { stdout, stderr } = err as { stdout?: unknown; stderr?: unknown };
  const printed = [stderr, stdout]
    .filter((s): s is string => typeof s === 'string' && s.trim() !== '')
    .map((s) => s.trim().split(/\r?\n/).slice(0, 3).join(' '))
    .join(' ');
  const message = errorMessage(err).split(/\r?\n/)[0] ?? '';
  return printed && !message.includes(printed) ? `${message}: ${printed}` : message;
}

const isNotInstalled = (err: unknown) => (err as { code?: unknown }).code === 'ENOENT';

/** Versions change only with a driver upgrade; re-read them now and then. */
const VERSION_CACHE_MS = 5 * 60_000;

/**
 * The inventory read at most maxAgeMs ago, else a new read; callers that come while a read runs
 * share it. `fresh` tells whether a cached value still stands (the simulated GPUs' control file).
 */
export class InventoryCache {
  private last: { at: number; inventory: GpuInventory } | undefined;
  private inflight: Promise<GpuInventory> | undefined;

  constructor(
    private readonly read: () => Promise<GpuInventory>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new read (joined by cached() callers while it runs). */
  refresh(): Promise<GpuInventory> {
    const read = this.read().then((inventory) => {
      this.last = { at: this.now(), inventory };
      return inventory;
    });
    const shared = read.finally(() => {
      if (this.inflight === shared) this.inflight = undefined;
    });
    this.inflight = shared;
    return shared;
  }

  async cached(maxAgeMs: number, fresh: () => Promise<boolean> = async () => true): Promise<GpuInventory> {
    if (this.inflight) return this.inflight;
    const last = this.last;
    if (last && this.now() - last.at <= maxAgeMs && (await fresh())) return last.inventory;
    return this.inflight ?? this.refresh();
  }
}

export interface NvidiaSmiProbeOptions {
  /** Critical Xids from the kernel log, merged into healthProblem. */
  xid?: XidMonitor;
  now?: () => number;
}

interface Versions {
  driverVersion: string;
  cudaVersion: string;
  at: number;
}

export class NvidiaSmiProbe implements GpuProbe {
  readonly simulated = false;
  private versions: Versions | undefined;
  /** The fields this driver answers, from `--help-query-gpu` (read once). */
  private fields: string[] | undefined;
  /** Topology of the last inventory, by uuid (sample() has none of its own). */
  private topology = new Map<string, { numaNode: number; nvlinkPeers: string[] }>();
  private readonly cache: InventoryCache;
  private readonly now: () => number;

  constructor(
    private readonly run: CommandRunner = execFileRunner(),
    private readonly options: NvidiaSmiProbeOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.cache = new InventoryCache(() => this.readInventory(), this.now);
  }

  inventory(): Promise<GpuInventory> {
    return this.cache.refresh();
  }

  cachedInventory(maxAgeMs: number): Promise<GpuInventory> {
    return this.cache.cached(maxAgeMs);
  }

  /** The GPUs now (utilisation, health); rejects only when nvidia-smi fails as a whole. */
  async sample(): Promise<GpuDevice[]> {
    const { gpus } = await this.readGpus();
    return gpus.map((gpu) => this.finish(gpu));
  }

  /** Stops the Xid watch. */
  close(): void {
    this.options.xid?.close();
  }

  private async queryFields(): Promise<string[]> {
    if (this.fields) return this.fields;
    try {
      const { stdout } = await this.run('nvidia-smi', ['--help-query-gpu']);
      const supported = parseHelpQueryGpu(stdout);
      if (supported.size > 0) {
        this.fields = queryFieldsFor(supported);
        return this.fields;
      }
    } catch (err) {
      if (isNotInstalled(err)) throw err;
    }
    return queryFieldsFor(undefined); // the base fields every driver knows; ask again next time
  }

  private async query(fields: string[], uuid?: string): Promise<ReturnType<typeof parseGpuQuery>> {
    const args = [`--query-gpu=${fields.join(',')}`, '--format=csv,nounits'];
    if (uuid) args.push('-i', uuid);
    const { stdout } = await this.run('nvidia-smi', args);
    return parseGpuQuery(stdout, fields);
  }

  /**
   * All GPUs in one query; when that fails (or leaves a GPU unnamed), `nvidia-smi -L` and one
   * query per uuid, so one broken GPU is listed as such and the others stay rentable.
   */
  private async readGpus(): Promise<{ gpus: GpuDevice[]; warnings: string[] }> {
    const fields = await this.queryFields();
    let whole: unknown;
    try {
      const result = await this.query(fields);
      if (result.unreadableRows === 0) return { gpus: result.gpus, warnings: [] };
      whole = new Error(`${result.unreadableRows} GPU(s) unreadable`);
    } catch (err) {
      if (isNotInstalled(err)) throw err;
      whole = err;
    }
    let listed: ListedGpu[];
    try {
      listed = parseGpuList((await this.run('nvidia-smi', ['-L'])).stdout);
    } catch (err) {
      // -L fails too: nvidia-smi fails as a whole (driver not loaded, ...).
      throw new Error(failure(whole), { cause: err });
    }
    if (listed.length === 0) throw new Error(failure(whole));
    const gpus = await Promise.all(listed.map((gpu) => this.readOne(fields, gpu)));
    return {
      gpus,
      warnings: [`nvidia-smi 整体查询失败, 已逐个读取 GPU (full query failed: ${failure(whole)})`],
    };
  }

  private async readOne(fields: string[], listed: ListedGpu): Promise<GpuDevice> {
    let reason: string;
    try {
      const [gpu] = (await this.query(fields, listed.uuid)).gpus;
      if (gpu) return gpu;
      reason = 'no row for this GPU';
    } catch (err) {
      reason = failure(err);
    }
    return {
      index: listed.index,
      uuid: listed.uuid,
      model: listed.model,
      memoryTotalMib: 0,
      memoryUsedMib: 0,
      utilizationPercent: 0,
      memoryUtilizationPercent: 0,
      temperatureC: 0,
      powerDrawW: 0,
      powerLimitW: 0,
      pciBusId: '',
      healthProblem: `nvidia-smi 无法读取该 GPU (${reason})`,
      persistenceMode: true,
      migEnabled: false,
      fabricState: '',
      numaNode: -1,
      nvlinkPeers: [],
    };
  }

  /** Adds the topology of the last inventory and the Xid problems. */
  private finish(gpu: GpuDevice): GpuDevice {
    const topology = this.topology.get(gpu.uuid);
    const xid = gpu.pciBusId ? (this.options.xid?.problemFor(gpu.pciBusId) ?? '') : '';
    const healthProblem = [gpu.healthProblem, xid].filter(Boolean).join('; ');
    return {
      ...gpu,
      healthProblem,
      numaNode: topology?.numaNode ?? gpu.numaNode,
      nvlinkPeers: topology ? [...topology.nvlinkPeers] : gpu.nvlinkPeers,
    };
  }

  private async readVersions(): Promise<Versions> {
    if (this.versions && this.now() - this.versions.at < VERSION_CACHE_MS) return this.versions;
    // `--version` is short and does not touch the GPUs; drivers before it have the table.
    for (const args of [['--version'], []]) {
      try {
        const { stdout } = await this.run('nvidia-smi', args);
        const versions = parseDriverVersions(stdout);
        if (versions.driverVersion) {
          this.versions = { ...versions, at: this.now() };
          return this.versions;
        }
      } catch {
        // try the next form; no version is not a reason to refuse the GPUs
      }
    }
    return { driverVersion: '', cudaVersion: '', at: this.now() };
  }

  private async readTopology(gpus: GpuDevice[]): Promise<void> {
    let rows: GpuTopology[] = [];
    if (gpus.length > 0) {
      try {
        rows = parseTopology((await this.run('nvidia-smi', ['topo', '-m'])).stdout);
      } catch {
        // unknown topology: numaNode -1, no peers
      }
    }
    const uuidOf = new Map(gpus.map((gpu) => [gpu.index, gpu.uuid]));
    this.topology = new Map();
    for (const row of rows) {
      const uuid = uuidOf.get(row.index);
      if (!uuid) continue;
      const nvlinkPeers = row.nvlinkPeers
        .map((peer) => uuidOf.get(peer))
        .filter((peer): peer is string => peer !== undefined);
      this.topology.set(uuid, { numaNode: row.numaNode, nvlinkPeers });
    }
  }

  private async readInventory(): Promise<GpuInventory> {
    try {
      const [{ gpus: read, warnings }, versions] = await Promise.all([this.readGpus(), this.readVersions()]);
      await this.readTopology(read);
      const gpus = read.map((gpu) => this.finish(gpu));
      const persistence = persistenceWarning(gpus);
      return {
        gpus,
        driverVersion: versions.driverVersion,
        cudaVersion: versions.cudaVersion,
        simulated: false,
        warnings: persistence ? [...warnings, persistence] : warnings,
        probeError: '',
      };
    } catch (err) {
      // No nvidia-smi at all: a host without NVIDIA GPUs (it can still run GPU-less containers).
      if (isNotInstalled(err)) return emptyInventory('');
      return emptyInventory(
        `nvidia-smi 运行失败, 节点暂不接受 GPU 任务 (nvidia-smi failed: ${errorMessage(err)})`,
      );
    }
  }
}

function emptyInventory(probeError: string): GpuInventory {
  return { gpus: [], driverVersion: '', cudaVersion: '', simulated: false, warnings: [], probeError };
}
