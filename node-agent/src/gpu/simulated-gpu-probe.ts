// Simulated GPUs (--simulate-gpus 8xRTX4090) for demos and tests on hosts without NVIDIA
// hardware: same inventory shape, stable fake uuids; the inventory reads idle, samples carry a
// made-up but plausible load (simulatedLoad) so monitoring has something to show. A control file in the
// agent's state folder (simulated-gpus.json, read on every inventory and sample) lets tests
// play what real hosts do: renumbering, a GPU lost or unhealthy, MIG, fabric, persistence,
// topology.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../errors.js';
import type { GpuDevice, GpuInventory, GpuProbe } from './gpu-probe.js';
import { persistenceWarning } from './nvidia-smi-parse.js';
import { InventoryCache } from './nvidia-smi-probe.js';

interface KnownModel {
  name: string;
  memoryMib: number;
  powerLimitW: number;
  /** SXM parts on an NVLink baseboard (HGX/DGX): all GPUs of the node in one NVLink domain. */
  nvlink?: boolean;
}

/** Keys are model names without spaces, dashes and the NVIDIA/GeForce prefixes, upper-case. */
const KNOWN_MODELS: Record<string, KnownModel> = {
  RTX4090: { name: 'NVIDIA GeForce RTX 4090', memoryMib: 24564, powerLimitW: 450 },
  RTX4090D: { name: 'NVIDIA GeForce RTX 4090 D', memoryMib: 24564, powerLimitW: 425 },
  RTX5090: { name: 'NVIDIA GeForce RTX 5090', memoryMib: 32607, powerLimitW: 575 },
  RTX4080: { name: 'NVIDIA GeForce RTX 4080', memoryMib: 16376, powerLimitW: 320 },
  RTX3090: { name: 'NVIDIA GeForce RTX 3090', memoryMib: 24576, powerLimitW: 350 },
  A100: { name: 'NVIDIA A100-SXM4-80GB', memoryMib: 81920, powerLimitW: 400, nvlink: true },
  A10080G: { name: 'NVIDIA A100-SXM4-80GB', memoryMib: 81920, powerLimitW: 400, nvlink: true },
  A10040G: { name: 'NVIDIA A100-SXM4-40GB', memoryMib: 40960, powerLimitW: 400, nvlink: true },
  A800: { name: 'NVIDIA A800-SXM4-80GB', memoryMib: 81920, powerLimitW: 400, nvlink: true },
  H100: { name: 'NVIDIA H100 80GB HBM3', memoryMib: 81559, powerLimitW: 700, nvlink: true },
  H800: { name: 'NVIDIA H800', memoryMib: 81559, powerLimitW: 700, nvlink: true },
  H200: { name: 'NVIDIA H200', memoryMib: 143771, powerLimitW: 700, nvlink: true },
  H20: { name: 'NVIDIA H20', memoryMib: 97871, powerLimitW: 500 },
  L40S: { name: 'NVIDIA L40S', memoryMib: 46068, powerLimitW: 350 },
  L20: { name: 'NVIDIA L20', memoryMib: 46068, powerLimitW: 275 },
  L4: { name: 'NVIDIA L4', memoryMib: 23034, powerLimitW: 72 },
  A10: { name: 'NVIDIA A10', memoryMib: 23028, powerLimitW: 150 },
  V100: { name: 'Tesla V100-SXM2-32GB', memoryMib: 32768, powerLimitW: 300 },
  T4: { name: 'Tesla T4', memoryMib: 15360, powerLimitW: 70 },
};

export function knownModel(model: string): KnownModel | undefined {
  const key = model
    .toUpperCase()
    .replace(/NVIDIA|GEFORCE|TESLA/g, '')
    .replace(/[\s_-]+/g, '');
  return KNOWN_MODELS[key];
}

/** GPU-SIM-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, the same for the same node, model and index. */
export function simulatedUuid(nodeName: string, model: string, index: number): string {
  const h = createHash('sha256').update(`${nodeName}\0${model}\0${index}`).digest('hex');
  return `GPU-SIM-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * `<stateDir>/simulated-gpus.json`; every key optional, a missing file means all defaults.
 * GPUs are named by their simulated uuid (simulatedUuid(nodeName, model, originalIndex)).
 */
export interface SimulatedGpuControl {
  /** The GPUs present, in nvidia-smi index order (index = position); one left out is lost. */
  order?: string[];
  /** uuid -> healthProblem. */
  unhealthy?: Record<string, string>;
  /** uuids with MIG mode enabled. */
  mig?: string[];
  /** NVLink fabric state of every GPU (`In Progress`, `Completed`, ...); '' when absent. */
  fabricState?: string;
  /** Persistence mode of every GPU; true when absent. */
  persistenceMode?: boolean;
  /** NUMA nodes the GPUs are split over, by original position; 2 with 4 GPUs or more, else 1. */
  numaNodes?: number;
  /** NVLink domains (uuid groups); by default one domain for SXM models, none for PCIe cards. */
  nvlink?: string[][];
}

/** A number in [0, 1) from the text (the same text, the same number). */
function unitHash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** Half-hour waves of work with a pause between: a job, its checkpoints, the next job. */
const LOAD_PERIOD_MS = 30 * 60_000;
/** Memory follows a slower wave (a model stays loaded between steps). */
const MEMORY_PERIOD_MS = 90 * 60_000;
/** Jitter changes once per this (the control plane samples every 15 s). */
const JITTER_STEP_MS = 5_000;

/**
 * What a simulated GPU reads at `atMs`: utilisation, memory, temperature and power that rise and
 * fall together, each GPU in its own phase (from its uuid) with a little jitter, so two samples a
 * few seconds apart differ and a day of them shows waves. Deterministic: the same GPU at the same
 * moment reads the same (tests, and replicas comparing notes).
 */
export function simulatedLoad(
  gpu: Pick<GpuDevice, 'uuid' | 'memoryTotalMib' | 'powerLimitW'>,
  atMs: number,
): Pick<
  GpuDevice,
  'utilizationPercent' | 'memoryUtilizationPercent' | 'memoryUsedMib' | 'temperatureC' | 'powerDrawW'
> {
  const phase = unitHash(gpu.uuid);
  const wave = (periodMs: number, offset: number) =>
    0.5 + 0.5 * Math.sin(2 * Math.PI * (atMs / periodMs + phase + offset));
  const jitter = unitHash(`${gpu.uuid}\0${Math.floor(atMs / JITTER_STEP_MS)}`) - 0.5; // [-0.5, 0.5)
  // Busy most of the wave, idle near its trough.
  const load = Math.max(0, Math.min(1, wave(LOAD_PERIOD_MS, 0) * 1.3 - 0.2 + jitter * 0.1));
  const utilizationPercent = Math.round(load * 100);
  const memoryShare = 0.05 + 0.8 * wave(MEMORY_PERIOD_MS, 0.25);
  const limit = gpu.powerLimitW > 0 ? gpu.powerLimitW : 300;
  const idleW = limit * 0.08;
  return {
    utilizationPercent,
    memoryUtilizationPercent: Math.round(load * 60),
    memoryUsedMib: Math.round(gpu.memoryTotalMib * memoryShare),
    temperatureC: Math.round(30 + load * 48 + jitter * 2),
    powerDrawW: Math.round((idleW + (limit * 0.92 - idleW) * load) * 100) / 100,
  };
}

export const SIMULATED_GPU_CONTROL_FILE = 'simulated-gpus.json';

export function simulatedGpuControlPath(stateDir: string): string {
  return path.join(stateDir, SIMULATED_GPU_CONTROL_FILE);
}

/** Writes the control file (atomically: a probe never reads half of it). */
export async function writeSimulatedGpuControl(
  stateDir: string,
  control: SimulatedGpuControl,
): Promise<void> {
  await fs.mkdir(stateDir, { recursive: true });
  const file = simulatedGpuControlPath(stateDir);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(control, null, 2)}\n`);
  await fs.rename(tmp, file);
}

async function readControl(
  file: string | undefined,
): Promise<{ control: SimulatedGpuControl; warning: string }> {
  if (!file) return { control: {}, warning: '' };
  let raw: string;
  try {
    raw = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return { control: {}, warning: '' };
    return { control: {}, warning: `模拟 GPU 控制文件无法读取 (${file}: ${errorMessage(err)})` };
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    return { control: parsed as SimulatedGpuControl, warning: '' };
  } catch (err) {
    return { control: {}, warning: `模拟 GPU 控制文件格式错误, 已忽略 (${file}: ${errorMessage(err)})` };
  }
}

export class SimulatedGpuProbe implements GpuProbe {
  readonly simulated = true;
  /** The GPUs as first seen, in their original order. */
  private readonly gpus: GpuDevice[];
  private readonly sxm: boolean;
  private readonly cache = new InventoryCache(() => this.read());
  private controlStamp = '';

  constructor(
    count: number,
    model: string,
    nodeName: string,
    /** The control file (simulatedGpuControlPath(stateDir)); none = defaults only. */
    private readonly controlFile?: string,
    private readonly now: () => number = Date.now,
  ) {
    const known = knownModel(model);
    this.sxm = known?.nvlink === true;
    this.gpus = Array.from({ length: count }, (_, index) => ({
      index,
      uuid: simulatedUuid(nodeName, model, index),
      model: known?.name ?? model,
      memoryTotalMib: known?.memoryMib ?? 0,
      memoryUsedMib: 0,
      utilizationPercent: 0,
      memoryUtilizationPercent: 0,
      temperatureC: 0,
      powerDrawW: 0,
      powerLimitW: known?.powerLimitW ?? 0,
      pciBusId: `00000000:${(0x18 + index * 0x10).toString(16).toUpperCase().padStart(2, '0').slice(-2)}:00.0`,
      healthProblem: '',
      persistenceMode: true,
      migEnabled: false,
      fabricState: '',
      numaNode: 0,
      nvlinkPeers: [],
    }));
  }

  /** The inventory with a load that moves with time (simulatedLoad): what monitoring charts. */
  async sample(): Promise<GpuDevice[]> {
    const at = this.now();
    return (await this.read()).gpus.map((gpu) => ({ ...gpu, ...simulatedLoad(gpu, at) }));
  }

  inventory(): Promise<GpuInventory> {
    return this.cache.refresh();
  }

  /** As on a real host, but a changed control file is seen at once (tests need no waiting). */
  cachedInventory(maxAgeMs: number): Promise<GpuInventory> {
    return this.cache.cached(maxAgeMs, async () => (await this.stamp()) === this.controlStamp);
  }

  close(): void {}

  private async stamp(): Promise<string> {
    if (!this.controlFile) return '';
    try {
      const stat = await fs.stat(this.controlFile);
      return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
    } catch {
      return 'absent';
    }
  }

  private async read(): Promise<GpuInventory> {
    const stamp = await this.stamp();
    const { control, warning } = await readControl(this.controlFile);
    this.controlStamp = stamp;
    const count = this.gpus.length;
    const byUuid = new Map(this.gpus.map((gpu) => [gpu.uuid, gpu]));
    const present = Array.isArray(control.order)
      ? control.order.flatMap((uuid) => {
          const gpu = byUuid.get(uuid);
          return gpu ? [gpu] : [];
        })
      : this.gpus;
    const numaNodes =
      typeof control.numaNodes === 'number' && control.numaNodes >= 1
        ? Math.floor(control.numaNodes)
        : count >= 4
          ? 2
          : 1;
    const domains = Array.isArray(control.nvlink)
      ? control.nvlink
      : this.sxm && count > 1
        ? [this.gpus.map((gpu) => gpu.uuid)]
        : [];
    const presentUuids = new Set(present.map((gpu) => gpu.uuid));
    const gpus = present.map((gpu, index) => {
      const original = this.gpus.indexOf(gpu);
      const peers = new Set<string>();
      for (const domain of domains) {
        if (!Array.isArray(domain) || !domain.includes(gpu.uuid)) continue;
        for (const peer of domain) if (peer !== gpu.uuid && presentUuids.has(peer)) peers.add(peer);
      }
      return {
        ...gpu,
        index,
        healthProblem: String(control.unhealthy?.[gpu.uuid] ?? ''),
        migEnabled: Array.isArray(control.mig) && control.mig.includes(gpu.uuid),
        fabricState: typeof control.fabricState === 'string' ? control.fabricState : '',
        persistenceMode: control.persistenceMode !== false,
        numaNode: Math.floor((original * numaNodes) / Math.max(count, 1)),
        nvlinkPeers: [...peers],
      };
    });
    const warnings = [warning, persistenceWarning(gpus)].filter(Boolean);
    return { gpus, driverVersion: '', cudaVersion: '', simulated: true, warnings, probeError: '' };
  }
}
