import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAgent } from '@gpucloud/node-agent';
import { inject } from 'vitest';

export interface TestAgent {
  address: string;
  token: string;
  portStart: number;
  volumeRoot: string;
  /** The agent's state directory: a test steers the simulated GPUs through its simulated-gpus.json. */
  stateDir: string;
  close(): Promise<void>;
}

export interface TestAgentOptions {
  gpus?: string;
  dockerHost?: string;
  /** host:port; port 0 (default) picks a free one. */
  listen?: string;
  /** Reuse a token / port range / volume root (an agent coming back after a restart). */
  token?: string;
  portStart?: number;
  volumeRoot?: string;
  reconcileIntervalMs?: number;
  /** The writable-layer allowance (`--container-layer-size`), and how often the layers are measured. */
  containerLayerSize?: string;
  layerMeasureIntervalMs?: number;
}

// Host ports for containers: below the kernel's ephemeral ports (32768-60999), where a test's own
// connections could hold one; a block of four agents' ranges per vitest worker, so files running
// side by side never share a port. The suites share one Docker engine and run side by side, so
// each has a band of its own: control-plane 20000-24799, e2e 24800-28799, node-agent 28800-31999.
const WORKER = (Number(process.env.VITEST_POOL_ID ?? 1) - 1) % 6;
const BLOCK_START = 20000 + WORKER * 800;
let nextRange = BLOCK_START;

/** The next 200 host ports of this file's block, for an agent this file runs in a process of its own. */
export function reserveAgentPortRange(): number {
  if (nextRange + 200 > BLOCK_START + 800) throw new Error('a test file may start at most 4 agents');
  const start = nextRange;
  nextRange += 200;
  return start;
}

/** A real agent on 127.0.0.1 with simulated GPUs, driving the test Docker engine. */
export async function startTestAgent(options: TestAgentOptions = {}): Promise<TestAgent> {
  const token = options.token ?? randomBytes(18).toString('hex');
  const portStart = options.portStart ?? reserveAgentPortRange();
  const volumeRoot = options.volumeRoot ?? mkdtempSync(path.join(os.tmpdir(), 'gpucloud-volumes-'));
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-state-'));
  const agent = await startAgent({
    token,
    listen: options.listen ?? '127.0.0.1:0',
    simulateGpus: options.gpus ?? '8xRTX4090',
    dockerHost: options.dockerHost ?? inject('dockerHost'),
    toolboxDir: inject('toolboxDir'),
    bindAddress: '127.0.0.1',
    publicHost: '127.0.0.1',
    portRange: `${portStart}-${portStart + 199}`,
    volumeRoot,
    stateDir,
    nodeName: `test-${token.slice(0, 6)}`,
    // A node name per agent: a network kept for later would outlive the test.
    tenantNetworkIdle: 0,
    heartbeatIntervalMs: 500,
    ...(options.reconcileIntervalMs ? { reconcileIntervalMs: options.reconcileIntervalMs } : {}),
    ...(options.containerLayerSize ? { containerLayerSize: options.containerLayerSize } : {}),
    ...(options.layerMeasureIntervalMs ? { layerMeasureIntervalMs: options.layerMeasureIntervalMs } : {}),
  });
  return {
    address: `127.0.0.1:${agent.port}`,
    token,
    portStart,
    volumeRoot,
    stateDir,
    close: async () => {
      await agent.close();
      // A volume root the caller passed is the caller's (a restarted agent keeps it).
      if (options.volumeRoot === undefined) rmSync(volumeRoot, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
