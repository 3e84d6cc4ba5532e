import { describe, expect, it } from 'vitest';
import { gpuSeries } from './gpu-metrics';

const metrics = {
  gpus: [
    { index: 0, model: 'A100' },
    { index: 3, model: 'A100' },
  ],
  samples: [
    {
      time: '2026-11-21T10:00:00.000Z',
      gpus: [
        {
          index: 0,
          utilization_percent: 40,
          memory_used_mib: 20480,
          memory_total_mib: 81920,
          temperature_c: 50,
          power_draw_w: 200,
        },
        {
          index: 3,
          utilization_percent: 90,
          memory_used_mib: 0,
          memory_total_mib: 81920,
          temperature_c: 60,
          power_draw_w: 300,
        },
      ],
    },
    {
      time: '2026-11-21T10:00:15.000Z',
      gpus: [
        {
          index: 0,
          utilization_percent: 45,
          memory_used_mib: 40960,
          memory_total_mib: 81920,
          temperature_c: 51,
          power_draw_w: 210,
        },
      ],
    },
  ],
};

describe('gpuSeries', () => {
  it('gives one line per GPU, skipping samples that lack it', () => {
    const util = gpuSeries(metrics, 'utilization');
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
});
