// GetHostInfo: host facts, disk of the volume root, Docker and GPU inventory. It answers even
// when Docker is down (docker_available=false with the reason), so the control plane can tell
// the operator what is wrong instead of losing the node.
import type { ContainerClient } from '../docker/container-client.js';
import { errorMessage } from '../errors.js';
import type { GpuInventory, GpuProbe } from '../gpu/gpu-probe.js';
import type { ToolkitInfo } from '../gpu/toolkit.js';
import { AGENT_BUILD, AGENT_VERSION } from '../version.js';
import type { GpuRuntime, GpuRuntimeState } from './gpu-runtime.js';
import type { DiskSpace, HostFacts, StaticHostFacts } from './host-facts.js';

export interface HostInfoData extends StaticHostFacts {
  agentVersion: string;
  /** The bundle's build, or "source" (HostInfo.agent_build). */
  agentBuild: string;
  /** The volume root's filesystem (HostInfo.disk_* and volume_disk_*). */
  diskTotalBytes: number;
  diskFreeBytes: number;
  /** Docker's data root's filesystem; zeros = unknown (a remote engine, Docker down). */
  imageDisk: DiskSpace;
  /** NOT_AFTER of the served TLS certificate (Unix ms); 0 without TLS. */
  certificateExpiresUnixMs: number;
  dockerAvailable: boolean;
  dockerVersion: string;
  dockerError: string;
  gpu: GpuInventory;
  /** The toolkit's parts and mode; empty strings on a host with simulated GPUs or none read. */
  toolkit: ToolkitInfo;
  /** 'cdi', 'legacy', or '' (simulated GPUs, no GPUs, Docker not answering). */
  gpuDevicePath: string;
  /** Why the host must get no GPU work (toolkit, device path); '' on a host without GPUs. */
  unsafeReason: string;
  portRange: { start: number; end: number };
  publicHost: string;
  /** What an operator should fix that does not stop work (besides the GPUs' own warnings). */
  warnings: string[];
}

const NO_TOOLKIT: ToolkitInfo = {
  ctkVersion: '',
  cliVersion: '',
  runtimeHookVersion: '',
  cdiHookVersion: '',
  mode: '',
  unsafeReason: '',
};

export interface HostInfoDeps {
  facts: HostFacts;
  client: ContainerClient;
  gpus: GpuProbe;
  runtime: GpuRuntime;
  portRange: { start: number; end: number };
  publicHost: string;
  /** Why tenants cannot be isolated on this host ('' when they are): the host then takes no containers. */
  isolationProblem?: () => string;
  warnings?: () => string[];
  /** Docker's data root's space (zeros when unknown); none = zeros. */
  imageDisk?: () => Promise<DiskSpace>;
  /** The served certificate's NOT_AFTER (Unix ms), 0 without TLS. */
  certificateExpiresUnixMs?: () => number;
}

const UNKNOWN_DISK: DiskSpace = { totalBytes: 0, freeBytes: 0 };

export async function collectHostInfo(deps: HostInfoDeps): Promise<HostInfoData> {
  const docker = deps.client.version().then(
    (v) => ({ dockerAvailable: true, dockerVersion: v.version, dockerError: '' }),
    (err: unknown) => ({ dockerAvailable: false, dockerVersion: '', dockerError: errorMessage(err) }),
  );
  // Docker down: the runtime cannot be read; the toolkit is then reported empty and dockerError says why.
  const runtime = deps.runtime.state().catch((): GpuRuntimeState | undefined => undefined);
  const [facts, disk, gpu, dockerState, state, imageDisk] = await Promise.all([
    deps.facts.staticFacts(),
    deps.facts.disk(),
    deps.gpus.inventory(),
    docker,
    runtime,
    deps.imageDisk ? deps.imageDisk().catch(() => UNKNOWN_DISK) : UNKNOWN_DISK,
  ]);
  // The toolkit matters only where there are GPUs to give (a CPU host runs GPU-less containers).
  const hasGpus = !gpu.simulated && gpu.gpus.length > 0;
  return {
    ...facts,
    agentVersion: AGENT_VERSION,
    agentBuild: AGENT_BUILD,
    diskTotalBytes: disk.totalBytes,
    diskFreeBytes: disk.freeBytes,
    imageDisk,
    certificateExpiresUnixMs: deps.certificateExpiresUnixMs?.() ?? 0,
    ...dockerState,
    gpu,
    toolkit: state?.toolkit ?? NO_TOOLKIT,
    gpuDevicePath: hasGpus ? (state?.devicePath ?? '') : '',
    // A host that cannot keep tenants apart must get none, GPUs or not.
    unsafeReason: deps.isolationProblem?.() || (hasGpus ? (state?.unsafeReason ?? '') : ''),
    warnings: deps.warnings?.() ?? [],
    portRange: deps.portRange,
    publicHost: deps.publicHost,
  };
}
