import type { Container, GpuState } from '@gpucloud/control-plane/api';

// GPUs are identified by UUID; the nvidia-smi index and the PCI bus id are shown for people.
// Shared by the admin nodes and the containers pages.

export interface GpuStateDisplay {
  label: string;
  color: string;
}

const GPU_STATE: Record<GpuState, GpuStateDisplay> = {
  ok: { label: '正常', color: 'success' },
  unhealthy: { label: '故障', color: 'error' },
  missing: { label: '已丢失', color: 'magenta' },
  mig: { label: 'MIG 模式', color: 'purple' },
  fabric: { label: 'NVLink 未就绪', color: 'warning' },
};

export function gpuStateDisplay(state: string): GpuStateDisplay {
  return GPU_STATE[state as GpuState] ?? { label: state || '未知', color: 'default' };
}

/** A UUID short enough for a table cell ("GPU-1a2b3c4d…9f0e"); the whole one goes in a tooltip. */
export function shortUuid(uuid: string): string {
  if (uuid.length <= 18) return uuid;
  return `${uuid.slice(0, 12)}…${uuid.slice(-4)}`;
}

/** "GPU 0, 1" for a container's GPUs (by their nvidia-smi index); '' when it has none. */
export function gpuIndexLabel(container: Pick<Container, 'gpus' | 'gpu_indices'>): string {
  const indices = container.gpus?.length
    ? container.gpus.map((gpu) => gpu.index)
    : (container.gpu_indices ?? []);
  return indices.length ? `GPU ${[...indices].sort((a, b) => a - b).join(', ')}` : '';
}
