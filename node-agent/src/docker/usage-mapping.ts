// Docker's stats and inspect answers → ContainerUsage, as `docker stats` reads them.
import type { ContainerUsage } from './container-client.js';
import { asRecord } from './dockerode-support.js';

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/**
 * Memory in use as the Docker CLI shows it: the usage less the inactive page cache the kernel
 * reclaims first (cgroup v2 `inactive_file`, v1 `total_inactive_file`).
 */
export function memoryInUse(memoryStats: unknown): number {
  const memory = asRecord(memoryStats);
  const stats = asRecord(memory.stats);
  const usage = num(memory.usage);
  const cache = 'inactive_file' in stats ? num(stats.inactive_file) : num(stats.total_inactive_file);
  return Math.max(0, usage - (cache < usage ? cache : 0));
}

/** A one-shot stats answer and an inspect answer of the same container. */
export function usageFromDocker(stats: unknown, inspect: unknown): ContainerUsage {
  const state = asRecord(asRecord(inspect).State);
  const running = state.Running === true;
  const cpu = asRecord(asRecord(asRecord(stats).cpu_stats).cpu_usage);
  return {
    running,
    cpuSeconds: running ? num(cpu.total_usage) / 1e9 : 0,
    memoryBytes: running ? memoryInUse(asRecord(stats).memory_stats) : 0,
    restartCount: num(asRecord(inspect).RestartCount),
  };
}
