// GPU discovery. The inventory (models, driver and toolkit versions) changes rarely; the
// utilisation sample is read on demand (HashiCorp's nomad-device-nvidia splits them the same way).

export interface GpuDevice {
  index: number;
  uuid: string;
  model: string;
  memoryTotalMib: number;
  memoryUsedMib: number;
  utilizationPercent: number;
  memoryUtilizationPercent: number;
  temperatureC: number;
  powerDrawW: number;
  powerLimitW: number;
}

export interface GpuInventory {
  gpus: GpuDevice[];
  driverVersion: string;
  cudaVersion: string;
  containerToolkitVersion: string;
  simulated: boolean;
  /** Non-empty when the host must get no GPU work; says why. */
  unsafeReason: string;
}

export interface GpuProbe {
  readonly simulated: boolean;
  inventory(): Promise<GpuInventory>;
  sample(): Promise<GpuDevice[]>;
}

/** Finds the GPUs that `ids` (indices or uuids) name; unknown ids are returned apart. */
export function matchGpus(gpus: GpuDevice[], ids: string[]): { found: GpuDevice[]; unknown: string[] } {
  const found: GpuDevice[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    const gpu = gpus.find((g) => String(g.index) === id || g.uuid === id);
    if (gpu) found.push(gpu);
    else unknown.push(id);
  }
  return { found, unknown };
}
