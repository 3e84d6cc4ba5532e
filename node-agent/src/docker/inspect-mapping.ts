// Docker's inspect and list shapes → the agent's ContainerDetails / ContainerSummary.
// Types only from dockerode: the runtime import stays in dockerode-container-client.ts.
import type { ContainerInfo, ContainerInspectInfo } from 'dockerode';
import type {
  BindMount,
  ContainerDetails,
  ContainerStateName,
  ContainerSummary,
  DiscoveredDevice,
  EngineInfo,
  PortMapping,
} from './container-client.js';

const STATES: Record<string, ContainerStateName> = {
  created: 'created',
  running: 'running',
  paused: 'paused',
  restarting: 'restarting',
  exited: 'exited',
  dead: 'dead',
  removing: 'removing',
};

export function stateFromDocker(status: string | undefined): ContainerStateName {
  return STATES[(status ?? '').toLowerCase()] ?? 'unknown';
}

/** Docker writes 0001-01-01T00:00:00Z for "never". */
export function timeMs(iso: string | undefined): number {
  if (!iso || iso.startsWith('0001-')) return 0;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export function stringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function portsFromBindings(bindings: unknown): PortMapping[] {
  const ports: PortMapping[] = [];
  for (const [key, list] of Object.entries(asRecord(bindings))) {
    const [port, proto] = key.split('/');
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const binding = asRecord(entry);
      const hostPort = Number(binding.HostPort);
      if (!hostPort) continue;
      ports.push({
        containerPort: Number(port),
        hostPort,
        protocol: proto === 'udp' ? 'udp' : 'tcp',
        hostIp: typeof binding.HostIp === 'string' ? binding.HostIp : '',
        name: '',
      });
    }
  }
  return ports.sort((a, b) => a.hostPort - b.hostPort);
}

function bindsFromMounts(mounts: unknown): BindMount[] {
  if (!Array.isArray(mounts)) return [];
  return mounts
    .map(asRecord)
    .filter((m) => m.Type === 'bind' && typeof m.Source === 'string' && typeof m.Target === 'string')
    .map((m) => ({ source: String(m.Source), target: String(m.Target), readOnly: m.ReadOnly === true }));
}

/** The CDI device name of an NVIDIA GPU: `nvidia.com/gpu=<UUID>`. */
export const NVIDIA_CDI_PREFIX = 'nvidia.com/gpu=';

/** The GPUs a container requested, as the agent named them (UUIDs, or indices before UUIDs). */
function nvidiaIds(deviceRequests: unknown): string[] {
  if (!Array.isArray(deviceRequests)) return [];
  return deviceRequests.map(asRecord).flatMap((r) => {
    if (r.Driver === 'nvidia') return stringList(r.DeviceIDs);
    if (r.Driver === 'cdi') {
      return stringList(r.DeviceIDs)
        .filter((id) => id.startsWith(NVIDIA_CDI_PREFIX))
        .map((id) => id.slice(NVIDIA_CDI_PREFIX.length));
    }
    return [];
  });
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;

/** Docker's /info answer → the parts the agent reads (see test/fixtures/docker-info). */
export function engineInfoFromDocker(info: unknown): EngineInfo {
  const r = asRecord(info);
  const devices = Array.isArray(r.DiscoveredDevices)
    ? r.DiscoveredDevices.map(asRecord)
        .filter((d) => typeof d.ID === 'string')
        .map(
          (d): DiscoveredDevice => ({
            source: typeof d.Source === 'string' ? d.Source : '',
            id: String(d.ID),
          }),
        )
    : undefined;
  return {
    serverVersion: typeof r.ServerVersion === 'string' ? r.ServerVersion : '',
    dataRoot: typeof r.DockerRootDir === 'string' ? r.DockerRootDir : '',
    cdiSpecDirs: strings(r.CDISpecDirs),
    discoveredDevices: devices,
    runtimes: Object.keys(asRecord(r.Runtimes)),
  };
}

function statusText(state: ContainerInspectInfo['State']): string {
  const status = state.Status;
  if (state.OOMKilled) return `${status} (out of memory, exit code ${state.ExitCode})`;
  if (status === 'exited' || status === 'dead') {
    return state.Error
      ? `${status} (exit code ${state.ExitCode}): ${state.Error}`
      : `${status} (exit code ${state.ExitCode})`;
  }
  return state.Error ? `${status}: ${state.Error}` : status;
}

export function detailsFromInspect(info: ContainerInspectInfo): ContainerDetails {
  const host = info.HostConfig ?? {};
  const config = info.Config;
  return {
    dockerId: info.Id,
    name: info.Name.replace(/^\//, ''),
    image: config.Image,
    labels: config.Labels ?? {},
    state: stateFromDocker(info.State.Status),
    statusText: statusText(info.State),
    exitCode: info.State.ExitCode ?? 0,
    createdAtMs: timeMs(info.Created),
    startedAtMs: timeMs(info.State.StartedAt),
    finishedAtMs: timeMs(info.State.FinishedAt),
    tty: config.Tty === true,
    env: config.Env ?? [],
    command: stringList(config.Cmd),
    entrypoint: stringList(config.Entrypoint),
    workingDir: config.WorkingDir ?? '',
    user: config.User ?? '',
    ports: portsFromBindings(host.PortBindings),
    binds: bindsFromMounts(host.Mounts),
    nvidiaDeviceIds: nvidiaIds(host.DeviceRequests),
    resources: {
      memoryBytes: host.Memory ?? 0,
      nanoCpus: host.NanoCpus ?? 0,
      pidsLimit: host.PidsLimit ?? 0,
      shmSizeBytes: host.ShmSize ?? 0,
    },
    health: {
      status: info.State.Health?.Status ?? '',
      output: (info.State.Health?.Log?.at(-1)?.Output ?? '').trim(),
    },
    log: {
      driver: host.LogConfig?.Type ?? '',
      options: host.LogConfig?.Config ?? {},
      path: info.LogPath ?? '',
    },
  };
}

export function summaryFromList(info: ContainerInfo): ContainerSummary {
  const published = (info.Ports ?? []).map((p) => p.PublicPort).filter((p): p is number => Boolean(p));
  return {
    dockerId: info.Id,
    name: (info.Names?.[0] ?? '').replace(/^\//, ''),
    labels: info.Labels ?? {},
    state: stateFromDocker(info.State),
    publishedPorts: [...new Set(published)],
  };
}
