import type { ContainerMetrics } from '@gpucloud/control-plane/api';
import { describe, expect, it } from 'vitest';
import { gpuName, metricCharts, pointCount, shortModel } from './container-metrics';

const A = 'GPU-aaaaaaaa-0000-0000-0000-000000000000';
const B = 'GPU-bbbbbbbb-0000-0000-0000-000000000000';

const point = (utilization: number, memory: number, extra: Partial<Record<string, number>> = {}) => ({
  utilization,
  utilization_max: utilization,
  memory_used_mib: memory,
  memory_used_max_mib: memory,
  temperature_c: 60,
  power_w: 300,
  ...extra,
});

const metrics: ContainerMetrics = {
  simulated: false,
  range: '1h',
  step_seconds: 60,
  gpus: [
    { uuid: A, index: 0, model: 'NVIDIA GeForce RTX 4090', memory_total_mib: 24_000, power_limit_w: 450 },
    { uuid: B, index: 3, model: 'NVIDIA GeForce RTX 4090', memory_total_mib: 24_000, power_limit_w: 450 },
  ],
  samples: [
    { t: '2026-11-26T10:00:00.000Z', gpus: [point(40, 6_000, { utilization_max: 90 }), point(10, 0)] },
    // B was not the container's at 10:01 (it held A only).
    { t: '2026-11-26T10:01:00.000Z', gpus: [point(50, 12_000, { memory_used_max_mib: 18_000 }), null] },
    // No sample at 10:02 and 10:03: the container was stopped.
    { t: '2026-11-26T10:04:00.000Z', gpus: [point(60, 24_000), point(20, 0)] },
  ],
};

const t = (s: string) => Date.parse(`2026-11-26T${s}:00.000Z`);

describe('metricCharts', () => {
  const charts = metricCharts(metrics);
  const chart = (kind: string) => {
    const found = charts.find((c) => c.kind === kind);
    if (!found) throw new Error(`no ${kind} chart`);
    return found;
  };

  it('gives four charts, one line per GPU named by index and model', () => {
    expect(charts.map((c) => [c.title, c.unit, c.max])).toEqual([
      ['GPU 利用率', '%', 100],
      ['显存使用率', '%', 100],
      ['GPU 温度', '°C', undefined],
      ['GPU 功耗', 'W', undefined],
    ]);
    for (const c of charts) {
      expect(c.series.map((s) => [s.id, s.name])).toEqual([
        [A, 'GPU 0 · RTX 4090'],
        [B, 'GPU 3 · RTX 4090'],
      ]);
    }
  });

  it('breaks a line where the GPU was not held and where samples are missing', () => {
    const util = chart('utilization').series;
    expect(util[0]?.points.map((p) => [p[0], p[1]])).toEqual([
      [t('10:00'), 40],
      [t('10:01'), 50],
      [t('10:02'), null],
      [t('10:04'), 60],
    ]);
    expect(util[1]?.points.map((p) => p[1])).toEqual([10, null, null, 20]);
    expect(pointCount(chart('utilization'))).toBe(5);
  });

  it('shows memory in percent of the card, with MiB and the peak in the tooltip', () => {
    const memory = chart('memory').series[0]?.points ?? [];
    expect(memory.map((p) => p[1])).toEqual([25, 50, null, 100]);
    expect(memory[1]?.[2]).toBe('12,000 / 24,000 MiB (50%)（峰值 18,000 MiB）');
    expect(memory[0]?.[2]).toBe('6,000 / 24,000 MiB (25%)');
  });

  it('tells the peak utilisation of a step where it was higher than the mean', () => {
    const util = chart('utilization').series[0]?.points ?? [];
    expect(util[0]?.[2]).toBe('40%（峰值 90%）');
    expect(util[1]?.[2]).toBe('50%');
  });

  it('draws the power limit across the power chart and names it in the tooltip', () => {
    const power = chart('power');
    expect(power.marks).toEqual([{ value: 450, label: '上限 450 W' }]);
    expect(power.series[0]?.points[0]?.[2]).toBe('300 W / 上限 450 W');
    expect(chart('temperature').series[0]?.points[0]?.[2]).toBe('60°C');
    expect(chart('temperature').marks).toEqual([]);
  });

  it('names a GPU the node no longer lists by its UUID, and shortens model names', () => {
    expect(gpuName({ uuid: A, index: -1, model: '', memory_total_mib: 0, power_limit_w: 0 })).toBe(
      'GPU GPU-aaaaaaaa',
    );
    expect(shortModel('NVIDIA H100 80GB HBM3')).toBe('H100 80GB HBM3');
    expect(shortModel('Tesla T4')).toBe('T4');
  });
});
