import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startAgent } from '@gpucloud/node-agent';
import { inject } from 'vitest';

export interface TestAgent {
  address: string;
  token: string;
  close(): Promise<void>;
}

let nextRange = 41000 + Math.floor(Math.random() * 40) * 500;

/** A real agent on 127.0.0.1 with simulated GPUs, driving the test Docker engine. */
export async function startTestAgent(
  options: { gpus?: string; dockerHost?: string } = {},
): Promise<TestAgent> {
  const token = randomBytes(18).toString('hex');
  const start = nextRange;
  nextRange += 200;
  const agent = await startAgent({
    token,
    listen: '127.0.0.1:0',
    simulateGpus: options.gpus ?? '8xRTX4090',
    dockerHost: options.dockerHost ?? inject('dockerHost'),
    bindAddress: '127.0.0.1',
    publicHost: '127.0.0.1',
    portRange: `${start}-${start + 199}`,
    volumeRoot: mkdtempSync(path.join(os.tmpdir(), 'gpucloud-volumes-')),
    nodeName: `test-${token.slice(0, 6)}`,
    heartbeatIntervalMs: 500,
  });
  return { address: `127.0.0.1:${agent.port}`, token, close: () => agent.close() };
}
