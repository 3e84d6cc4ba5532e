import type { GpuMetrics } from '@gpucloud/control-plane/api';

// The samples are the control plane's `GpuMetrics` (GET /api/admin/nodes/{id}/metrics and
// GET /api/containers/{id}/metrics).

export type GpuMetricKind = 'utilization' | 'memory';

export interface GpuSeries {
  name: string;
  points: [number, number][];
}

/** One line per GPU: utilisation in percent, or memory used in percent of the card's memory. */
export function gpuSeries(metrics: GpuMetrics, kind: GpuMetricKind): GpuSeries[] {
  return metrics.gpus.map((gpu) => ({
    name: `GPU ${gpu.index}`,
    points: metrics.samples.flatMap((s) => {
      const point = s.gpus.find((g) => g.index === gpu.index);
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
