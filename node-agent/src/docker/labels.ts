// The labels every managed container carries. Docker is the truth about what runs on a host:
// from these labels alone the agent (and the control plane's reconciliation) can tell whose
// container it is and how it was configured, after a restart of either side.
import type { PortMapping, PortProtocol, VolumeMount } from './container-client.js';

export const LABELS = {
  managed: 'gpucloud.managed',
  containerId: 'gpucloud.container-id',
  ownerId: 'gpucloud.owner-id',
  ownerName: 'gpucloud.owner-name',
  displayName: 'gpucloud.display-name',
  node: 'gpucloud.node',
  gpus: 'gpucloud.gpus',
  ports: 'gpucloud.ports',
  mounts: 'gpucloud.mounts',
  /** The image the user chose; a recreated container runs from a commit of it. */
  image: 'gpucloud.image',
  /** How many times the container was recreated by ReconfigureContainer. */
  generation: 'gpucloud.generation',
  /** 'auto': the CPU limit is the share of the GPUs (no nano_cpus was asked for). */
  cpuShare: 'gpucloud.cpu-share',
} as const;

/** Labels the agent writes itself; a request may not set them. */
export const RESERVED_LABELS: ReadonlySet<string> = new Set(Object.values(LABELS));

export const MANAGED_FILTER = `${LABELS.managed}=true`;

export const containerName = (containerId: string) => `gpucloud-${containerId}`;

export interface ManagedLabelValues {
  containerId: string;
  ownerId: string;
  ownerName: string;
  displayName: string;
  node: string;
  image: string;
  generation: number;
  gpuDeviceIds: string[];
  ports: PortMapping[];
  mounts: VolumeMount[];
}

export function managedLabels(
  values: ManagedLabelValues,
  extra: Record<string, string>,
): Record<string, string> {
  return {
    ...extra,
    [LABELS.managed]: 'true',
    [LABELS.containerId]: values.containerId,
    [LABELS.ownerId]: values.ownerId,
    [LABELS.ownerName]: values.ownerName,
    [LABELS.displayName]: values.displayName,
    [LABELS.node]: values.node,
    [LABELS.image]: values.image,
    [LABELS.generation]: String(values.generation),
    [LABELS.gpus]: values.gpuDeviceIds.join(','),
    [LABELS.ports]: JSON.stringify(values.ports),
    [LABELS.mounts]: JSON.stringify(values.mounts),
  };
}

/** The labels a request gave, without the agent's own. */
export function userLabels(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([key]) => !RESERVED_LABELS.has(key)));
}

function parseJsonArray(text: string | undefined): unknown[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    // A hand-edited label is not worth failing an inspect for; the ports come from Docker too.
    return [];
  }
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

export function portsFromLabel(text: string | undefined): PortMapping[] {
  return parseJsonArray(text).map((item) => {
    const r = record(item);
    const protocol: PortProtocol = r.protocol === 'udp' ? 'udp' : 'tcp';
    return {
      containerPort: Number(r.containerPort) || 0,
      hostPort: Number(r.hostPort) || 0,
      protocol,
      hostIp: typeof r.hostIp === 'string' ? r.hostIp : '',
      name: typeof r.name === 'string' ? r.name : '',
    };
  });
}

export function mountsFromLabel(text: string | undefined): VolumeMount[] {
  return parseJsonArray(text).map((item) => {
    const r = record(item);
    return {
      volumeName: typeof r.volumeName === 'string' ? r.volumeName : '',
      target: typeof r.target === 'string' ? r.target : '',
      readOnly: r.readOnly === true,
    };
  });
}

export function gpusFromLabel(text: string | undefined): string[] {
  return (text ?? '').split(',').filter(Boolean);
}
