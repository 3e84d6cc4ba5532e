// Simulated GPUs (--simulate-gpus 8xRTX4090) for demos and tests on hosts without NVIDIA
// hardware: same inventory shape, stable fake uuids, no utilisation.
import { createHash } from 'node:crypto';
import type { GpuDevice, GpuInventory, GpuProbe } from './gpu-probe.js';

interface KnownModel {
  name: string;
  memoryMib: number;
  powerLimitW: number;
}

/** Keys are model names without spaces, dashes and the NVIDIA/GeForce prefixes, upper-case. */
const KNOWN_MODELS: Record<string, KnownModel> = {
  RTX4090: { name: 'NVIDIA GeForce RTX 4090', memoryMib: 24564, powerLimitW: 450 },
  RTX4090D: { name: 'NVIDIA GeForce RTX 4090 D', memoryMib: 24564, powerLimitW: 425 },
  RTX5090: { name: 'NVIDIA GeForce RTX 5090', memoryMib: 32607, powerLimitW: 575 },
  RTX4080: { name: 'NVIDIA GeForce RTX 4080', memoryMib: 16376, powerLimitW: 320 },
  RTX3090: { name: 'NVIDIA GeForce RTX 3090', memoryMib: 24576, powerLimitW: 350 },
  A100: { name: 'NVIDIA A100-SXM4-80GB', memoryMib: 81920, powerLimitW: 400 },
  A10080G: { name: 'NVIDIA A100-SXM4-80GB', memoryMib: 81920, powerLimitW: 400 },
  A10040G: { name: 'NVIDIA A100-SXM4-40GB', memoryMib: 40960, powerLimitW: 400 },
  A800: { name: 'NVIDIA A800-SXM4-80GB', memoryMib: 81920, powerLimitW: 400 },
  H100: { name: 'NVIDIA H100 80GB HBM3', memoryMib: 81559, powerLimitW: 700 },
  H800: { name: 'NVIDIA H800', memoryMib: 81559, powerLimitW: 700 },
  H200: { name: 'NVIDIA H200', memoryMib: 143771, powerLimitW: 700 },
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

export class SimulatedGpuProbe implements GpuProbe {
  readonly simulated = true;
  private readonly gpus: GpuDevice[];

  constructor(count: number, model: string, nodeName: string) {
    const known = knownModel(model);
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
    }));
  }

  async sample(): Promise<GpuDevice[]> {
    return this.gpus.map((gpu) => ({ ...gpu }));
  }

  async inventory(): Promise<GpuInventory> {
    return {
      gpus: await this.sample(),
      driverVersion: '',
      cudaVersion: '',
      containerToolkitVersion: '',
      simulated: true,
      unsafeReason: '',
    };
  }
}
