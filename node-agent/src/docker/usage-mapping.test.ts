import { describe, expect, it } from 'vitest';
import { memoryInUse, usageFromDocker } from './usage-mapping.js';

describe('a container’s usage from Docker’s answers', () => {
  it('counts memory as docker stats does: the usage less the inactive page cache (cgroup v2 and v1)', () => {
    expect(memoryInUse({ usage: 100_000, stats: { inactive_file: 30_000 } })).toBe(70_000);
    expect(memoryInUse({ usage: 100_000, stats: { total_inactive_file: 40_000 } })).toBe(60_000);
    expect(memoryInUse({ usage: 100_000, stats: {} })).toBe(100_000);
    // A cache figure above the usage (a racy read) is not subtracted.
    expect(memoryInUse({ usage: 100, stats: { inactive_file: 500 } })).toBe(100);
    expect(memoryInUse(undefined)).toBe(0);
  });

  it('reads CPU time in seconds and the restart count; a stopped container uses nothing', () => {
    const stats = { cpu_stats: { cpu_usage: { total_usage: 2_500_000_000 } }, memory_stats: { usage: 4096 } };
    expect(usageFromDocker(stats, { State: { Running: true }, RestartCount: 2 })).toEqual({
      running: true,
      cpuSeconds: 2.5,
      memoryBytes: 4096,
      restartCount: 2,
    });
    expect(usageFromDocker({}, { State: { Running: false }, RestartCount: 1 })).toEqual({
      running: false,
      cpuSeconds: 0,
      memoryBytes: 0,
      restartCount: 1,
    });
  });
});
