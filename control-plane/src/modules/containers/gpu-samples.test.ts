// A container's GPU samples are summed per node and minute in memory and written once the minute
// is over: one statement per minute for the whole fleet, not one per heartbeat tick. (The SQL that
// splits them by holder is test/container-metrics.test.ts's, against PostgreSQL.)
import type { GpuInfo__Output, GpuSample__Output } from '@gpucloud/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContainerGpuSamples } from './gpu-samples.js';
import type { ContainerGpuSamplesRepository, GpuMinute } from './gpu-samples-repository.js';

const MINUTE = 60_000;
/** A minute start well clear of the present, so fake time lines up with it. */
const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

function gpu(uuid: string, utilization: number, extra: Partial<GpuInfo__Output> = {}): GpuInfo__Output {
  return {
    index: 0,
    uuid,
    model: 'RTX4090',
    memoryTotalMib: '24564',
    memoryUsedMib: String(utilization * 100),
    utilizationPercent: utilization,
    memoryUtilizationPercent: 0,
    temperatureC: 40,
    powerDrawW: 100 + utilization,
    powerLimitW: 450,
    pciBusId: '',
    healthProblem: '',
    persistenceMode: true,
    migEnabled: false,
    fabricState: '',
    numaNode: 0,
    nvlinkPeers: [],
    ...extra,
  };
}

const sample = (at: number, gpus: GpuInfo__Output[]): GpuSample__Output => ({ timeUnixMs: String(at), gpus });

let writes: GpuMinute[][];
let fail: boolean;
let logged: string[];
let samples: ContainerGpuSamples;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  writes = [];
  fail = false;
  logged = [];
  const repo = {
    addMinutes: async (rows: GpuMinute[]) => {
      if (fail) throw new Error('database down');
      writes.push(rows);
    },
  } as unknown as ContainerGpuSamplesRepository;
  samples = new ContainerGpuSamples({
    repo,
    nodes: { gpus: async () => [] },
    log: (message) => logged.push(message),
  });
});
afterEach(() => {
  vi.useRealTimers();
});

const byKey = (rows: GpuMinute[]) =>
  Object.fromEntries(rows.map((r) => [`${r.nodeId}/${r.gpuUuid}/${r.minute.getTime() - T0}`, r]));

describe('GPU samples of containers', () => {
  it('are written once their minute is over, every node in one write, each bucket counted once', async () => {
    // Four 15 s buckets of node 1 (bucket 2 sampled twice: a reconnect), two of node 2.
    for (const [bucket, u] of [
      [0, 10],
      [1, 20],
      [2, 60],
      [2, 99],
      [3, 30],
    ] as const) {
      await vi.advanceTimersByTimeAsync(T0 + bucket * 15_000 + 1000 - Date.now());
      samples.record(1, sample(Date.now(), [gpu('GPU-B', u), gpu('GPU-A', 50)]));
    }
    // Node 2's agent clock is behind ours: its samples say when they were taken.
    samples.record(2, sample(T0 + 1000, [gpu('GPU-C', 80)]));
    samples.record(2, sample(T0 + 16_000, [gpu('GPU-C', 70)]));
    // Nothing is written while the minute goes on, nor right at its end.
    await vi.advanceTimersByTimeAsync(T0 + MINUTE + 1000 - Date.now());
    expect(writes).toEqual([]);
    // A sample of the next minute waits for that one.
    samples.record(1, sample(Date.now(), [gpu('GPU-A', 1), gpu('GPU-B', 1)]));
    await vi.advanceTimersByTimeAsync(5000);
    expect(writes).toHaveLength(1);
    const rows = byKey(writes[0] ?? []);
    expect(Object.keys(rows).sort()).toEqual(['1/GPU-A/0', '1/GPU-B/0', '2/GPU-C/0']);
    expect(rows['1/GPU-B/0']).toMatchObject({
      buckets: 0b1111,
      samples: 4,
      utilizationSum: 10 + 20 + 60 + 30,
      utilizationMax: 60,
      memoryUsedSum: 12_000,
      memoryUsedMax: 6000,
      temperatureSum: 160,
      powerSum: 520,
      powerLimitW: 450,
    });
    expect(rows['1/GPU-A/0']).toMatchObject({ samples: 4, utilizationSum: 200, utilizationMax: 50 });
    expect(rows['2/GPU-C/0']).toMatchObject({
      buckets: 0b11,
      samples: 2,
      utilizationSum: 150,
      utilizationMax: 80,
    });

    // The next minute at its end; a flush writes what is summed so far of the current one.
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(writes).toHaveLength(2);
    expect(Object.keys(byKey(writes[1] ?? [])).sort()).toEqual(['1/GPU-A/60000', '1/GPU-B/60000']);
    samples.record(2, sample(Date.now(), [gpu('GPU-C', 5)]));
    await samples.flush();
    expect(writes).toHaveLength(3);
    expect(writes[2]).toMatchObject([{ nodeId: 2, samples: 1, utilizationSum: 5 }]);
    await samples.flush();
    expect(writes).toHaveLength(3);
  });

  it('starts a minute again when the node’s GPUs change in it', async () => {
    await vi.advanceTimersByTimeAsync(20_000);
    samples.record(1, sample(T0 + 1000, [gpu('GPU-A', 10), gpu('GPU-B', 10)]));
    samples.record(1, sample(T0 + 16_000, [gpu('GPU-A', 30)]));
    await samples.flush();
    expect(writes[0]).toMatchObject([{ gpuUuid: 'GPU-A', buckets: 0b10, samples: 1, utilizationSum: 30 }]);
  });

  it('tells a failed write and writes the next minutes all the same', async () => {
    samples.record(1, sample(T0 + 1000, [gpu('GPU-A', 10)]));
    fail = true;
    await vi.advanceTimersByTimeAsync(MINUTE + 6000);
    expect(logged).toEqual(['GPU samples of 1 node minutes not written']);
    fail = false;
    samples.record(1, sample(Date.now(), [gpu('GPU-A', 20)]));
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject([{ minute: new Date(T0 + MINUTE), utilizationSum: 20 }]);
  });
});
