// GPU discovery. The inventory (models, health, topology, driver version) changes rarely; the
// utilisation sample is read on demand (HashiCorp's nomad-device-nvidia splits them the same way).
// A GPU is named by its UUID everywhere: nvidia-smi's index may change between boots and when a
// GPU is lost (NVIDIA: enumeration order "is not guaranteed to be consistent between reboots").

export interface GpuDevice {
  /** nvidia-smi's index: for people only, never an identity. */
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
  /** PCI bus id as nvidia-smi prints it (00000000:3B:00.0); '' when unknown. */
  pciBusId: string;
  /** Why the GPU must not be rented now (Chinese, with the detail); '' = healthy. */
  healthProblem: string;
  persistenceMode: boolean;
  /** MIG mode enabled: never sold whole. */
  migEnabled: boolean;
  /** NVLink fabric state on NVSwitch systems (Completed, In Progress, ...); '' where not reported. */
  fabricState: string;
  /** NUMA node of the GPU; -1 = unknown. */
  numaNode: number;
  /** UUIDs of the GPUs reached over NVLink. */
  nvlinkPeers: string[];
}

export interface GpuInventory {
  gpus: GpuDevice[];
  driverVersion: string;
  cudaVersion: string;
  simulated: boolean;
  /** What an operator should fix that does not stop GPU work (persistence mode off, ...). */
  warnings: string[];
  /** Non-empty when nvidia-smi failed as a whole: `gpus` is then not current. */
  probeError: string;
}

export interface GpuProbe {
  readonly simulated: boolean;
  /** Reads the inventory now (nvidia-smi, topology, health). */
  inventory(): Promise<GpuInventory>;
  /**
   * The inventory read at most `maxAgeMs` ago, else read now; a create or start uses this, so
   * `nvidia-smi` does not run on every one.
   */
  cachedInventory(maxAgeMs: number): Promise<GpuInventory>;
  sample(): Promise<GpuDevice[]>;
  /** Stops what the probe watches (the kernel's Xid messages); probes injected by tests may lack it. */
  close?(): void;
}

/** Finds the GPUs that `ids` (uuids, or the indices of containers created before uuids) name. */
export function matchGpus(gpus: GpuDevice[], ids: string[]): { found: GpuDevice[]; unknown: string[] } {
  const found: GpuDevice[] = [];
  const unknown: string[] = [];
  for (const id of ids) {
    const gpu = gpus.find((g) => g.uuid === id || String(g.index) === id);
    if (gpu) found.push(gpu);
    else unknown.push(id);
  }
  return { found, unknown };
}
