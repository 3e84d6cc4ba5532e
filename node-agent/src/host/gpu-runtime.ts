// How this host gives containers GPUs, decided from Docker's /info and the NVIDIA Container
// Toolkit: through CDI devices where Docker lists the toolkit's nvidia.com/gpu devices, else
// through the toolkit's legacy runtime hook. Read at most every 30 s (a create asks for it).
import type { ContainerClient, EngineInfo, GpuDevicePath } from '../docker/container-client.js';
import { NVIDIA_CDI_PREFIX } from '../docker/inspect-mapping.js';
import type { ToolkitInfo, ToolkitProbe } from '../gpu/toolkit.js';

export const GPU_RUNTIME_CACHE_MS = 30_000;

export interface GpuRuntimeState {
  /** '' on a host with simulated GPUs (no DeviceRequests at all). */
  devicePath: GpuDevicePath | '';
  /** undefined with simulated GPUs. */
  toolkit: ToolkitInfo | undefined;
  /** UUIDs (or other names) Docker lists as `nvidia.com/gpu=<name>` CDI devices. */
  cdiGpuNames: string[];
  /** Non-empty when the host must get no GPU work (toolkit below the floor, CDI not usable). */
  unsafeReason: string;
}

/** The nvidia.com/gpu device names in Docker's discovered devices. */
export function nvidiaCdiNames(engine: Pick<EngineInfo, 'discoveredDevices'>): string[] {
  return (engine.discoveredDevices ?? [])
    .filter((d) => d.source === 'cdi' && d.id.startsWith(NVIDIA_CDI_PREFIX))
    .map((d) => d.id.slice(NVIDIA_CDI_PREFIX.length));
}

/**
 * The device path and why it cannot be used, from Docker's /info and the toolkit. A toolkit
 * in CDI mode refuses the legacy request (dstackai/dstack#2306: "invoking the NVIDIA Container
 * Runtime Hook directly (e.g. specifying the docker --gpus flag) is not supported"), so with
 * no CDI devices listed such a host gets no GPU work until the spec is generated.
 */
export function chooseDevicePath(
  engine: Pick<EngineInfo, 'discoveredDevices' | 'cdiSpecDirs' | 'serverVersion'>,
  toolkit: Pick<ToolkitInfo, 'mode' | 'unsafeReason'>,
): { devicePath: GpuDevicePath; unsafeReason: string } {
  const listed = nvidiaCdiNames(engine).length > 0;
  if (listed) return { devicePath: 'cdi', unsafeReason: toolkit.unsafeReason };
  if (toolkit.mode === 'cdi') {
    const dirs = engine.cdiSpecDirs?.length ? engine.cdiSpecDirs.join(', ') : 'none: CDI is off in Docker';
    const reason =
      `NVIDIA Container Toolkit 为 CDI 模式, 但 Docker 未列出 nvidia.com/gpu CDI 设备, 容器无法获得 GPU ` +
      `(mode = "cdi" in /etc/nvidia-container-runtime/config.toml; Docker ${engine.serverVersion || '?'} lists no ` +
      `nvidia.com/gpu devices, CDI spec dirs: ${dirs}. Run \`nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml\`; ` +
      'Docker >= 28.2 is needed to list the devices)';
    return { devicePath: 'cdi', unsafeReason: toolkit.unsafeReason || reason };
  }
  return { devicePath: 'legacy', unsafeReason: toolkit.unsafeReason };
}

export interface GpuRuntimeDeps {
  client: Pick<ContainerClient, 'engineInfo'>;
  /** undefined with simulated GPUs. */
  toolkit: ToolkitProbe | undefined;
  cacheMs?: number;
  now?: () => number;
}

export class GpuRuntime {
  private cached: { at: number; state: Promise<GpuRuntimeState> } | undefined;

  constructor(private readonly deps: GpuRuntimeDeps) {}

  /** The state read at most `cacheMs` ago (`fresh`: read now). Rejects when Docker does not answer. */
  state(fresh = false): Promise<GpuRuntimeState> {
    const now = (this.deps.now ?? Date.now)();
    const maxAge = this.deps.cacheMs ?? GPU_RUNTIME_CACHE_MS;
    if (!fresh && this.cached && now - this.cached.at < maxAge) return this.cached.state;
    const state = this.read();
    this.cached = { at: now, state };
    state.catch(() => {
      if (this.cached?.state === state) this.cached = undefined;
    });
    return state;
  }

  private async read(): Promise<GpuRuntimeState> {
    const probe = this.deps.toolkit;
    if (!probe) return { devicePath: '', toolkit: undefined, cdiGpuNames: [], unsafeReason: '' };
    const [engine, toolkit] = await Promise.all([this.deps.client.engineInfo(), probe.info()]);
    const { devicePath, unsafeReason } = chooseDevicePath(engine, toolkit);
    return { devicePath, toolkit, cdiGpuNames: nvidiaCdiNames(engine), unsafeReason };
  }
}
