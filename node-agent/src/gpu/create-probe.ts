// The GPU probe an agent runs with: simulated GPUs for demos and tests, else nvidia-smi with an
// Xid watch on the kernel log.
import type { GpuProbe } from './gpu-probe.js';
import { NvidiaSmiProbe } from './nvidia-smi-probe.js';
import { SimulatedGpuProbe, simulatedGpuControlPath } from './simulated-gpu-probe.js';
import { kmsgLines, XidMonitor } from './xid.js';

export interface GpuProbeOptions {
  simulate?: { count: number; model: string } | undefined;
  nodeName: string;
  /** The agent's own folder (simulated GPUs read their control file there). */
  stateDir: string;
  log: (line: string) => void;
  /** Xids that do not make a GPU unhealthy (DEFAULT_IGNORED_XIDS when absent). */
  ignoredXids?: readonly number[] | undefined;
}

/** A probe the agent closes on shutdown (it stops the Xid watch). */
export type ClosableGpuProbe = GpuProbe & { close(): void };

export function createGpuProbe(options: GpuProbeOptions): ClosableGpuProbe {
  if (options.simulate) {
    return new SimulatedGpuProbe(
      options.simulate.count,
      options.simulate.model,
      options.nodeName,
      simulatedGpuControlPath(options.stateDir),
    );
  }
  const abort = new AbortController();
  const xid = new XidMonitor({
    source: kmsgLines({ signal: abort.signal, log: options.log }),
    ...(options.ignoredXids ? { ignoredXids: options.ignoredXids } : {}),
    log: options.log,
  });
  const probe = new NvidiaSmiProbe(undefined, { xid });
  return {
    simulated: probe.simulated,
    inventory: () => probe.inventory(),
    cachedInventory: (maxAgeMs) => probe.cachedInventory(maxAgeMs),
    sample: () => probe.sample(),
    close: () => {
      abort.abort();
      probe.close();
    },
  };
}
