// GetHostInfo: host facts, disk of the volume root, Docker and GPU inventory. It answers even
// when Docker is down (docker_available=false with the reason), so the control plane can tell
// the operator what is wrong instead of losing the node.
import type { ContainerClient } from '../docker/container-client.js';
import { errorMessage } from '../errors.js';
import type { GpuInventory, GpuProbe } from '../gpu/gpu-probe.js';
import { AGENT_VERSION } from '../version.js';
import type { HostFacts, StaticHostFacts } from './host-facts.js';

export interface HostInfoData extends StaticHostFacts {
  agentVersion: string;
  diskTotalBytes: number;
  diskFreeBytes: number;
  dockerAvailable: boolean;
  dockerVersion: string;
  dockerError: string;
  gpu: GpuInventory;
  portRange: { start: number; end: number };
  publicHost: string;
}

export interface HostInfoDeps {
  facts: HostFacts;
  client: ContainerClient;
  gpus: GpuProbe;
  portRange: { start: number; end: number };
  publicHost: string;
}

export async function collectHostInfo(deps: HostInfoDeps): Promise<HostInfoData> {
  const docker = deps.client.version().then(
    (v) => ({ dockerAvailable: true, dockerVersion: v.version, dockerError: '' }),
    (err: unknown) => ({ dockerAvailable: false, dockerVersion: '', dockerError: errorMessage(err) }),
  );
  const [facts, disk, gpu, dockerState] = await Promise.all([
    deps.facts.staticFacts(),
    deps.facts.disk(),
    deps.gpus.inventory(),
    docker,
  ]);
  return {
    ...facts,
    agentVersion: AGENT_VERSION,
    diskTotalBytes: disk.totalBytes,
    diskFreeBytes: disk.freeBytes,
    ...dockerState,
    gpu,
    portRange: deps.portRange,
    publicHost: deps.publicHost,
  };
}
