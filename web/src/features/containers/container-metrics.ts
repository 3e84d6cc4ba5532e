import type { ContainerGpuPoint, ContainerMetrics } from '@gpucloud/control-plane/api';

// 监控 of a container: the control plane's ContainerMetrics (GET /api/containers/{id}/metrics) as
// one chart per kind of metric, one line per GPU. Pure: the chart itself (echarts) loads lazily.

export type ContainerMetricKind = 'utilization' | 'memory' | 'temperature' | 'power';

/** A point: time (ms), value (null = a gap in the line) and what the tooltip says of it. */
export type MetricPoint = [number, number | null, string];

export interface MetricSeries {
  /** The GPU's UUID. */
  id: string;
  /** The legend: "GPU 0 · RTX 4090". */
  name: string;
  points: MetricPoint[];
}

export interface MetricChart {
  kind: ContainerMetricKind;
  title: string;
  unit: string;
  /** The top of the value axis (100 for percentages); undefined = fitted to the data. */
  max: number | undefined;
  /** Dashed lines across the chart: the power limit. */
  marks: { value: number; label: string }[];
  series: MetricSeries[];
}

/** "NVIDIA GeForce RTX 4090" → "RTX 4090": what the legend has room for. */
export function shortModel(model: string): string {
  return model.replace(/^(NVIDIA\s+)?(GeForce\s+|Tesla\s+)?/i, '').trim() || model;
}

/** "GPU 0 · RTX 4090" (a GPU the node no longer lists: by the start of its UUID). */
export function gpuName(gpu: ContainerMetrics['gpus'][number]): string {
  const id = gpu.index >= 0 ? `GPU ${gpu.index}` : `GPU ${gpu.uuid.slice(0, 12)}`;
  return gpu.model ? `${id} · ${shortModel(gpu.model)}` : id;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const percent = (used: number, total: number) => (total > 0 ? Math.round((used / total) * 1000) / 10 : 0);
/** "45%", with the step's peak where it was higher. */
const withPeak = (mean: string, peak: string, higher: boolean) => (higher ? `${mean}（峰值 ${peak}）` : mean);

type Reading = (
  point: ContainerGpuPoint,
  gpu: ContainerMetrics['gpus'][number],
) => { value: number; text: string };

const READINGS: Record<ContainerMetricKind, Reading> = {
  utilization: (p) => ({
    value: p.utilization,
    text: withPeak(`${p.utilization}%`, `${p.utilization_max}%`, p.utilization_max > p.utilization),
  }),
  memory: (p, gpu) => ({
    value: percent(p.memory_used_mib, gpu.memory_total_mib),
    text: withPeak(
      gpu.memory_total_mib > 0
        ? `${int(p.memory_used_mib)} / ${int(gpu.memory_total_mib)} MiB (${percent(p.memory_used_mib, gpu.memory_total_mib)}%)`
        : `${int(p.memory_used_mib)} MiB`,
      `${int(p.memory_used_max_mib)} MiB`,
      p.memory_used_max_mib > p.memory_used_mib,
    ),
  }),
  temperature: (p) => ({ value: p.temperature_c, text: `${p.temperature_c}°C` }),
  power: (p, gpu) => ({
    value: p.power_w,
    text: gpu.power_limit_w > 0 ? `${p.power_w} W / 上限 ${gpu.power_limit_w} W` : `${p.power_w} W`,
  }),
};

const TITLES: Record<ContainerMetricKind, { title: string; unit: string }> = {
  utilization: { title: 'GPU 利用率', unit: '%' },
  memory: { title: '显存使用率', unit: '%' },
  temperature: { title: 'GPU 温度', unit: '°C' },
  power: { title: 'GPU 功耗', unit: 'W' },
};

export const METRIC_KINDS: ContainerMetricKind[] = ['utilization', 'memory', 'temperature', 'power'];

/**
 * One chart per kind, one line per GPU (in the reply's order: by index). A GPU the container did
 * not hold at a point, and a stretch without samples (the container was stopped), are gaps.
 */
export function metricCharts(metrics: ContainerMetrics): MetricChart[] {
  const step = metrics.step_seconds * 1000;
  return METRIC_KINDS.map((kind) => {
    const read = READINGS[kind];
    const series = metrics.gpus.map((gpu, i) => {
      const points: MetricPoint[] = [];
      let last: number | undefined;
      for (const sample of metrics.samples) {
        const t = Date.parse(sample.t);
        // A missing step breaks the line instead of joining across it.
        if (last !== undefined && t - last > step * 1.5) points.push([last + step, null, '']);
        last = t;
        const point = sample.gpus[i];
        if (!point) {
          points.push([t, null, '']);
          continue;
        }
        const { value, text } = read(point, gpu);
        points.push([t, value, text]);
      }
      return { id: gpu.uuid, name: gpuName(gpu), points };
    });
    const limits = [...new Set(metrics.gpus.map((g) => g.power_limit_w).filter((w) => w > 0))];
    return {
      kind,
      ...TITLES[kind],
      max: kind === 'utilization' || kind === 'memory' ? 100 : undefined,
      marks: kind === 'power' ? limits.map((w) => ({ value: w, label: `上限 ${w} W` })) : [],
      series,
    };
  });
}

/** How many points of the chart hold a value (0: nothing to draw). */
export function pointCount(chart: MetricChart): number {
  return chart.series.reduce((n, s) => n + s.points.filter((p) => p[1] !== null).length, 0);
}
