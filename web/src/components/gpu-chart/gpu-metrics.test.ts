import type { GpuMetrics } from '@gpucloud/control-plane/api';
import { describe, expect, it } from 'vitest';
import { gpuSeries } from './gpu-metrics';

const A = 'GPU-aaaaaaaa-0000-0000-0000-000000000000';
const B = 'GPU-bbbbbbbb-0000-0000-0000-000000000000';
const C = 'GPU-cccccccc-0000-0000-0000-000000000000';

const sample = (uuid: string, index: number, utilization: number, memoryUsed: number) => ({
  uuid,
  index,
  utilization_percent: utilization,
  memory_used_mib: memoryUsed,
  memory_total_mib: 81920,
  temperature_c: 50,
  power_draw_w: 200,
});

const metrics: GpuMetrics = {
  gpus: [
    { uuid: A, index: 0, model: 'A100' },
    { uuid: B, index: 3, model: 'A100' },
  ],
  samples: [
    {
      time: '2026-11-21T10:00:00.000Z',
      gpus: [sample(A, 0, 40, 20480), sample(B, 3, 90, 0)],
    },
    {
      time: '2026-11-21T10:00:15.000Z',
      gpus: [sample(A, 0, 45, 40960)],
    },
  ],
};

describe('gpuSeries', () => {
  it('gives one line per GPU, keyed by UUID and named by index, skipping samples that lack it', () => {
    const util = gpuSeries(metrics, 'utilization');
    expect(util.map((s) => s.id)).toEqual([A, B]);
    expect(util.map((s) => s.name)).toEqual(['GPU 0', 'GPU 3']);
    expect(util[0]?.points).toEqual([
      [Date.parse('2026-11-21T10:00:00.000Z'), 40],
      [Date.parse('2026-11-21T10:00:15.000Z'), 45],
    ]);
    expect(util[1]?.points).toHaveLength(1);
  });

  it('shows memory as a percentage of the card', () => {
    expect(gpuSeries(metrics, 'memory')[0]?.points.map((p) => p[1])).toEqual([25, 50]);
  });

  it('follows the UUID, not the index: a replaced card at the same index is a line of its own', () => {
    const swapped: GpuMetrics = {
      gpus: [
        { uuid: A, index: 0, model: 'A100' },
        { uuid: C, index: 0, model: 'A100' },
      ],
      samples: [
        { time: '2026-11-21T10:00:00.000Z', gpus: [sample(A, 0, 10, 0)] },
        { time: '2026-11-21T10:00:15.000Z', gpus: [sample(C, 0, 70, 0)] },
      ],
    };
    const util = gpuSeries(swapped, 'utilization');
    expect(util.map((s) => s.points.map((p) => p[1]))).toEqual([[10], [70]]);
    expect(util.map((s) => s.name)).toEqual(['GPU 0 (GPU-aaaaaaaa)', 'GPU 0 (GPU-cccccccc)']);
  });
});
