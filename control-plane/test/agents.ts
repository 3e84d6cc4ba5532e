import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAgent } from '@gpucloud/node-agent';
import { inject } from 'vitest';

export interface TestAgent {
  address: string;
  token: string;
  portStart: number;
  volumeRoot: string;
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
}

let nextRange = 41000 + Math.floor(Math.random() * 40) * 500;

/** A real agent on 127.0.0.1 with simulated GPUs, driving the test Docker engine. */
export async function startTestAgent(options: TestAgentOptions = {}): Promise<TestAgent> {
  const token = options.token ?? randomBytes(18).toString('hex');
  const portStart = options.portStart ?? nextRange;
  if (options.portStart === undefined) nextRange += 200;
  const volumeRoot = options.volumeRoot ?? mkdtempSync(path.join(os.tmpdir(), 'gpucloud-volumes-'));
  const agent = await startAgent({
    token,
    listen: options.listen ?? '127.0.0.1:0',
    simulateGpus: options.gpus ?? '8xRTX4090',
    dockerHost: options.dockerHost ?? inject('dockerHost'),
    bindAddress: '127.0.0.1',
    publicHost: '127.0.0.1',
    portRange: `${portStart}-${portStart + 199}`,
    volumeRoot,
    nodeName: `test-${token.slice(0, 6)}`,
    heartbeatIntervalMs: 500,
    ...(options.reconcileIntervalMs ? { reconcileIntervalMs: options.reconcileIntervalMs } : {}),
  });
  return { address: `127.0.0.1:${agent.port}`, token, portStart, volumeRoot, close: () => agent.close() };
}
