// The Docker create body of a managed container: the definition plus the hardening every
// rented container gets (no privileges it does not need, never the Docker socket).
import type { ContainerCreateOptions } from 'dockerode';
import type { BindMount, ContainerDefinition, GpuDevicePath, PortMapping } from './container-client.js';
import { NVIDIA_CDI_PREFIX } from './inspect-mapping.js';

/** What sshd and a root login shell need; everything else is dropped. */
export const CAP_ADD = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'SETGID',
  'SETUID',
  'SETPCAP',
  'NET_BIND_SERVICE',
  'SYS_CHROOT',
  'AUDIT_WRITE',
] as const;

export const SECURITY_OPT = ['no-new-privileges:true'] as const;

/** Sockets that give root on the host; no mount may expose them. */
export const DOCKER_SOCKET_PATHS = [
  '/var/run/docker.sock',
  '/run/docker.sock',
  '/var/run/containerd/containerd.sock',
  '/run/containerd/containerd.sock',
  '/var/lib/docker',
] as const;

export const portKey = (port: Pick<PortMapping, 'containerPort' | 'protocol'>) =>
  `${port.containerPort}/${port.protocol}`;

function portBindings(ports: PortMapping[]): Record<string, Array<{ HostIp: string; HostPort: string }>> {
  const bindings: Record<string, Array<{ HostIp: string; HostPort: string }>> = {};
  for (const port of ports) {
    const key = portKey(port);
    const list = bindings[key] ?? [];
    list.push({ HostIp: port.hostIp, HostPort: String(port.hostPort) });
    bindings[key] = list;
  }
  return bindings;
}

function mounts(binds: BindMount[]) {
  return binds.map((bind) => ({
    Type: 'bind' as const,
    Source: bind.source,
    Target: bind.target,
    ReadOnly: bind.readOnly,
    BindOptions: { Propagation: 'rprivate' as const },
  }));
}

/**
 * The DeviceRequest that gives a container exactly these GPUs (UUIDs). Where Docker lists the
 * toolkit's CDI devices, the CDI driver injects them (`docker run --device nvidia.com/gpu=<UUID>`);
 * else the toolkit's legacy hook does (`docker run --gpus device=<UUID>`). A toolkit in CDI
 * mode refuses the legacy request ("invoking the NVIDIA Container Runtime Hook directly ... is
 * not supported", dstackai/dstack#2306), which is why the path is chosen per host.
 */
export function gpuDeviceRequests(uuids: string[], path: GpuDevicePath = 'legacy') {
  if (uuids.length === 0) return undefined;
  if (path === 'cdi') return [{ Driver: 'cdi', DeviceIDs: uuids.map((id) => `${NVIDIA_CDI_PREFIX}${id}`) }];
  return [{ Driver: 'nvidia', DeviceIDs: [...uuids], Capabilities: [['gpu']] }];
}

export function buildCreateOptions(definition: ContainerDefinition): ContainerCreateOptions {
  const { resources } = definition;
  return {
    name: definition.name,
    Image: definition.image,
    Env: definition.env,
    Labels: definition.labels,
    ...(definition.command.length > 0 ? { Cmd: definition.command } : {}),
    ...(definition.entrypoint ? { Entrypoint: definition.entrypoint } : {}),
    ...(definition.workingDir ? { WorkingDir: definition.workingDir } : {}),
    ...(definition.user ? { User: definition.user } : {}),
    ...(definition.healthcheck
      ? {
          Healthcheck: {
            Test: ['CMD', ...definition.healthcheck.test],
            Interval: definition.healthcheck.intervalMs * 1e6,
            Timeout: definition.healthcheck.timeoutMs * 1e6,
            Retries: definition.healthcheck.retries,
            StartPeriod: definition.healthcheck.startPeriodMs * 1e6,
            StartInterval: definition.healthcheck.startIntervalMs * 1e6,
          },
        }
      : {}),
    ExposedPorts: Object.fromEntries(definition.ports.map((port) => [portKey(port), {}])),
    Tty: false,
    OpenStdin: false,
    HostConfig: {
      PortBindings: portBindings(definition.ports),
      Mounts: mounts(definition.binds),
      ...(definition.nvidiaDeviceIds.length > 0
        ? { DeviceRequests: gpuDeviceRequests(definition.nvidiaDeviceIds, definition.gpuDevicePath) }
        : {}),
      ...(resources.memoryBytes > 0
        ? { Memory: resources.memoryBytes, MemorySwap: resources.memoryBytes }
        : {}),
      ...(resources.nanoCpus > 0 ? { NanoCpus: resources.nanoCpus } : {}),
      PidsLimit: resources.pidsLimit,
      ...(definition.networkMode ? { NetworkMode: definition.networkMode } : {}),
      ...(definition.storageSize ? { StorageOpt: { size: definition.storageSize } } : {}),
      ShmSize: resources.shmSizeBytes,
      // docker-init as PID 1: reaps the zombies of DataLoader workers and forwards SIGTERM, so a
      // stop does not wait out the timeout because the image's main process ignores it as PID 1.
      Init: true,
      Privileged: false,
      CapDrop: ['ALL'],
      CapAdd: [...CAP_ADD],
      SecurityOpt: [...SECURITY_OPT],
      RestartPolicy: { Name: 'unless-stopped' },
      // Bounded logs: a chatty training job must not fill the host's disk.
      LogConfig: {
        Type: 'json-file',
        Config: {
          'max-size': definition.logLimits.maxSize,
          'max-file': String(definition.logLimits.maxFiles),
        },
      },
    },
  };
}
