import type { GpuMetrics } from '@gpucloud/control-plane/api';

// The samples are the control plane's `GpuMetrics` (GET /api/admin/nodes/{id}/metrics; a
// container's 监控 has charts of its own: features/containers/container-metrics.ts). A GPU is its
// UUID; the index only names its line.

export type GpuMetricKind = 'utilization' | 'memory';

export interface GpuSeries {
  /** The GPU's UUID: the series' identity. */
  id: string;
  /** The legend: "GPU <index>" (with a short UUID when two GPUs share an index). */
  name: string;
  points: [number, number][];
}

/** One line per GPU: utilisation in percent, or memory used in percent of the card's memory. */
export function gpuSeries(metrics: GpuMetrics, kind: GpuMetricKind): GpuSeries[] {
  const perIndex = new Map<number, number>();
  for (const gpu of metrics.gpus) perIndex.set(gpu.index, (perIndex.get(gpu.index) ?? 0) + 1);
  return metrics.gpus.map((gpu) => ({
    id: gpu.uuid,
    name:
      (perIndex.get(gpu.index) ?? 0) > 1 ? `GPU ${gpu.index} (${gpu.uuid.slice(0, 12)})` : `GPU ${gpu.index}`,
    points: metrics.samples.flatMap((s) => {
      const point = s.gpus.find((g) => g.uuid === gpu.uuid);
      if (!point) return [];
      const value =
        kind === 'utilization'
          ? point.utilization_percent
          : point.memory_total_mib > 0
            ? Math.round((point.memory_used_mib / point.memory_total_mib) * 1000) / 10
            : 0;
      return [[Date.parse(s.time), value] as [number, number]];
    }),
  }));
}
