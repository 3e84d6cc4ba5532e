// proto ↔ domain. Loader options: longs as strings, enums as strings, defaults filled in.
import type {
  AgentEvent,
  ContainerInfo,
  ContainerSpec__Output,
  ContainerState,
  GpuInfo,
  HostInfo,
  Mount,
  Mount__Output,
  PortBinding,
  PortBinding__Output,
  RegistryAuth__Output,
  Resources,
  Resources__Output,
  Volume,
} from '@gpucloud/proto';
import { AGENT_PROTOCOL_VERSION } from '@gpucloud/proto';
import type { ContainerSpecInput, ManagedContainer } from '../containers/types.js';
import type {
  ContainerStateName,
  PortMapping,
  RegistryCredentials,
  ResourceLimits,
  VolumeMount,
} from '../docker/container-client.js';
import { invalidArgument } from '../errors.js';
import type { WatchEvent } from '../events/event-watch.js';
import type { GpuDevice } from '../gpu/gpu-probe.js';
import type { HostInfoData } from '../host/host-info.js';
import type { VolumeInfo } from '../volumes/volume-store.js';

/** A uint64/int64 field (a decimal string) as a JS number; refuses what a number cannot hold. */
export function int64(value: string | number | undefined, field: string): number {
  const n = Number(value ?? 0);
  if (!Number.isSafeInteger(n)) throw invalidArgument(`${field} is out of range`);
  return n;
}

export function portFromProto(port: PortBinding__Output): PortMapping {
  return {
    containerPort: port.containerPort,
    hostPort: port.hostPort,
    protocol: port.protocol === 'PROTOCOL_UDP' ? 'udp' : 'tcp',
    hostIp: port.hostIp,
    name: port.name,
  };
}

export function portToProto(port: PortMapping): PortBinding {
  return {
    containerPort: port.containerPort,
    hostPort: port.hostPort,
    protocol: port.protocol === 'udp' ? 'PROTOCOL_UDP' : 'PROTOCOL_TCP',
    hostIp: port.hostIp,
    name: port.name,
  };
}

export function mountFromProto(mount: Mount__Output): VolumeMount {
  return { volumeName: mount.volumeName, target: mount.target, readOnly: mount.readOnly };
}

export function mountToProto(mount: VolumeMount): Mount {
  return { volumeName: mount.volumeName, target: mount.target, readOnly: mount.readOnly };
}

function resourcesFromProto(resources: Resources__Output | null): ResourceLimits {
  return {
    memoryBytes: int64(resources?.memoryBytes, 'resources.memory_bytes'),
    nanoCpus: int64(resources?.nanoCpus, 'resources.nano_cpus'),
    pidsLimit: int64(resources?.pidsLimit, 'resources.pids_limit'),
    shmSizeBytes: int64(resources?.shmSizeBytes, 'resources.shm_size_bytes'),
  };
}

function resourcesToProto(resources: ResourceLimits): Resources {
  return {
    memoryBytes: resources.memoryBytes,
    nanoCpus: resources.nanoCpus,
    pidsLimit: resources.pidsLimit,
    shmSizeBytes: resources.shmSizeBytes,
  };
}

export function specFromProto(spec: ContainerSpec__Output | null): ContainerSpecInput {
  if (!spec) throw invalidArgument('spec is required');
  return {
    containerId: spec.containerId,
    ownerId: spec.ownerId,
    ownerName: spec.ownerName,
    displayName: spec.displayName,
    image: spec.image,
    gpuDeviceIds: spec.gpuDeviceIds,
    ports: spec.ports.map(portFromProto),
    mounts: spec.mounts.map(mountFromProto),
    resources: resourcesFromProto(spec.resources),
    env: spec.env,
    labels: spec.labels,
    command: spec.command,
    extraDriverCapabilities: spec.extraDriverCapabilities,
  };
}

export function registryAuthFromProto(auth: RegistryAuth__Output | null): RegistryCredentials | undefined {
  if (!auth || (!auth.username && !auth.password)) return undefined;
  return { serverAddress: auth.serverAddress, username: auth.username, password: auth.password };
}

const STATE_TO_PROTO: Record<ContainerStateName, ContainerState> = {
  created: 'CONTAINER_STATE_CREATED',
  running: 'CONTAINER_STATE_RUNNING',
  paused: 'CONTAINER_STATE_PAUSED',
  restarting: 'CONTAINER_STATE_RESTARTING',
  exited: 'CONTAINER_STATE_EXITED',
  dead: 'CONTAINER_STATE_DEAD',
  removing: 'CONTAINER_STATE_REMOVING',
  not_found: 'CONTAINER_STATE_NOT_FOUND',
  unknown: 'CONTAINER_STATE_UNSPECIFIED',
};

export const stateToProto = (state: ContainerStateName): ContainerState => STATE_TO_PROTO[state];

export function containerToProto(c: ManagedContainer): ContainerInfo {
  return {
    containerId: c.containerId,
    dockerId: c.dockerId,
    ownerId: c.ownerId,
    displayName: c.displayName,
    image: c.image,
    state: stateToProto(c.state),
    statusText: c.statusText,
    exitCode: c.exitCode,
    createdUnixMs: c.createdAtMs,
    startedUnixMs: c.startedAtMs,
    finishedUnixMs: c.finishedAtMs,
    gpuDeviceIds: c.gpuDeviceIds,
    ports: c.ports.map(portToProto),
    mounts: c.mounts.map(mountToProto),
    labels: c.labels,
    startError: c.startError,
    reachable: c.reachable,
    jupyter: c.jupyter,
    writableLayerBytes: c.writableLayerBytes,
    writableLayerAllowanceBytes: c.writableLayerAllowanceBytes,
    resources: resourcesToProto(c.resources),
  };
}

export function gpuToProto(gpu: GpuDevice): GpuInfo {
  return {
    index: gpu.index,
    uuid: gpu.uuid,
    model: gpu.model,
    memoryTotalMib: Math.round(gpu.memoryTotalMib),
    memoryUsedMib: Math.round(gpu.memoryUsedMib),
    utilizationPercent: Math.round(gpu.utilizationPercent),
    memoryUtilizationPercent: Math.round(gpu.memoryUtilizationPercent),
    temperatureC: Math.round(gpu.temperatureC),
    powerDrawW: gpu.powerDrawW,
    powerLimitW: gpu.powerLimitW,
    pciBusId: gpu.pciBusId,
    healthProblem: gpu.healthProblem,
    persistenceMode: gpu.persistenceMode,
    migEnabled: gpu.migEnabled,
    fabricState: gpu.fabricState,
    numaNode: gpu.numaNode,
    nvlinkPeers: gpu.nvlinkPeers,
  };
}

export function hostInfoToProto(h: HostInfoData): HostInfo {
  return {
    hostname: h.hostname,
    agentVersion: h.agentVersion,
    os: h.os,
    kernel: h.kernel,
    arch: h.arch,
    cpuModel: h.cpuModel,
    cpuCores: h.cpuCores,
    memoryTotalBytes: h.memoryTotalBytes,
    diskTotalBytes: h.diskTotalBytes,
    diskFreeBytes: h.diskFreeBytes,
    dockerAvailable: h.dockerAvailable,
    dockerVersion: h.dockerVersion,
    dockerError: h.dockerError,
    nvidiaDriverVersion: h.gpu.driverVersion,
    cudaVersion: h.gpu.cudaVersion,
    containerToolkitVersion: h.toolkit.ctkVersion || h.toolkit.cliVersion,
    simulated: h.gpu.simulated,
    unsafeReason: h.unsafeReason,
    gpus: h.gpu.gpus.map(gpuToProto),
    portRangeStart: h.portRange.start,
    portRangeEnd: h.portRange.end,
    publicHost: h.publicHost,
    gpuDevicePath: h.gpuDevicePath,
    containerToolkitMode: h.toolkit.mode,
    nvidiaContainerCliVersion: h.toolkit.cliVersion,
    nvidiaContainerRuntimeHookVersion: h.toolkit.runtimeHookVersion,
    nvidiaCdiHookVersion: h.toolkit.cdiHookVersion,
    warnings: [...h.gpu.warnings, ...h.warnings],
    gpuProbeError: h.gpu.probeError,
    protocolVersion: AGENT_PROTOCOL_VERSION,
    agentBuild: h.agentBuild,
    imageDiskFreeBytes: h.imageDisk.freeBytes,
    imageDiskTotalBytes: h.imageDisk.totalBytes,
    volumeDiskFreeBytes: h.diskFreeBytes,
    volumeDiskTotalBytes: h.diskTotalBytes,
    certificateExpiresUnixMs: h.certificateExpiresUnixMs,
  };
}

export function volumeToProto(v: VolumeInfo): Volume {
  return {
    ownerId: v.ownerId,
    name: v.name,
    hostPath: v.hostPath,
    sizeBytes: v.sizeBytes,
    createdUnixMs: v.createdAtMs,
  };
}

export function watchEventToProto(event: WatchEvent): AgentEvent {
  switch (event.kind) {
    case 'heartbeat':
      return {
        heartbeat: {
          timeUnixMs: event.timeUnixMs,
          dockerAvailable: event.dockerAvailable,
          runningContainers: event.runningContainers,
        },
      };
    case 'container':
      return {
        container: {
          containerId: event.containerId,
          action: event.action,
          state: stateToProto(event.state),
          exitCode: event.exitCode,
          timeUnixMs: event.timeUnixMs,
        },
      };
    case 'gpuSample':
      return { gpuSample: { timeUnixMs: event.timeUnixMs, gpus: event.gpus.map(gpuToProto) } };
    case 'reconcile':
      return {
        reconcile: { timeUnixMs: event.timeUnixMs, containers: event.containers.map(containerToProto) },
      };
  }
}
