import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunningControlPlane, startControlPlane } from '@gpucloud/control-plane/platform';
import { ADMIN } from '@gpucloud/control-plane/test-harness';
import { startAgent } from '@gpucloud/node-agent';
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';
import { controlPlaneConfig } from './control-plane-config.js';
import { createDatabase } from './databases.js';
import { watchBrowser } from './page-watch.js';

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
// The admin the test harness signs in as (to read the sandbox outbox, for instance).
export { ADMIN };

export interface Platform {
  cp: RunningControlPlane;
  url: string;
  close(): Promise<void>;
}

/**
 * The whole platform as `npm start` runs it: a real agent with 8 simulated GPUs on the test
 * Docker engine (ports published on 127.0.0.1), registered as node "local", and the control
 * plane serving the built console.
 */
export async function startPlatform(
  options: { console?: boolean; registry?: boolean } = {},
): Promise<Platform> {
  const serveConsole = options.console ?? true;
  if (serveConsole && !existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(`the console is not built (${WEB_DIST}); run npm run build -w @gpucloud/web`);
  }
  const rangeStart = workerPortBase();
  const node = await startTestAgent(`${rangeStart}-${rangeStart + 499}`);
  const { agent, token } = node;
  const config = controlPlaneConfig({
    databaseUrl: await createDatabase(inject('databaseUrl'), 'e2e'),
    adminUsername: ADMIN.username,
    adminPassword: ADMIN.password,
    webDist: serveConsole ? WEB_DIST : undefined,
    sessionTtlHours: 24,
    bootstrapNode: {
      name: 'local',
      address: `127.0.0.1:${agent.port}`,
      token,
      region: '本地',
      publicHost: '127.0.0.1',
    },
    agentCallTimeoutMs: 60_000,
    nodeOfflineAfterMs: 30_000,
    monitorSyncIntervalMs: 10_000,
    heartbeatIntervalMs: 1_000,
  });
  // The embedded registry (Debian's docker-registry, as npm start runs it) on a free port.
  const registryDir = options.registry ? mkdtempSync(path.join(os.tmpdir(), 'gpucloud-e2e-registry-')) : null;
  if (registryDir) {
    config.registry = { kind: 'embedded', binary: '/usr/bin/docker-registry', port: 0, dataDir: registryDir };
  }
  const cp = await startControlPlane(config, () => {});
  return {
    cp,
    url: cp.url,
    async close() {
      const live = await cp.knex('containers').whereNot('status', 'deleted').select('id');
      for (const row of live) {
        await cp.services.containers
          .destroy({ id: 0, username: ADMIN.username, nickname: null, isAdmin: true }, row.id, {
            admin: true,
          })
          .catch(() => {});
      }
      await cp.close();
      await node.close();
      if (registryDir) rmSync(registryDir, { recursive: true, force: true });
    },
  };
}

/**
 * The first of this vitest worker's 800 host ports: below the kernel's ephemeral ports
 * (32768-60999), where the test's own connections could hold one, in the e2e suite's band
 * (24800-28799: the suites share one Docker engine and run side by side, see
 * control-plane/test/agents.ts). The platform's agent takes the first 500; a second node the rest.
 */
export const workerPortBase = () => 24800 + ((Number(process.env.VITEST_POOL_ID ?? 1) - 1) % 5) * 800;

export interface TestAgent {
  agent: Awaited<ReturnType<typeof startAgent>>;
  token: string;
  close(): Promise<void>;
}

/**
 * A real agent with 8 simulated GPUs on the test Docker engine, publishing ports of `portRange`
 * on 127.0.0.1 (a second one, as another node, takes another part of the worker's range).
 */
export async function startTestAgent(portRange: string): Promise<TestAgent> {
  const token = randomBytes(18).toString('hex');
  const volumeRoot = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-e2e-volumes-'));
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-e2e-state-'));
  const agent = await startAgent({
    token,
    listen: '127.0.0.1:0',
    simulateGpus: '8xRTX4090',
    dockerHost: inject('dockerHost'),
    toolboxDir: inject('toolboxDir'),
    bindAddress: '127.0.0.1',
    publicHost: '127.0.0.1',
    portRange,
    volumeRoot,
    stateDir,
    // A test- name: containers an interrupted run leaves are cleaned by the next (not npm start's).
    nodeName: `test-e2e-${token.slice(0, 6)}`,
    // A node name per agent: a network kept for later would outlive the test.
    tenantNetworkIdle: 0,
    heartbeatIntervalMs: 1000,
  });
  return {
    agent,
    token,
    async close() {
      await agent.close();
      rmSync(volumeRoot, { recursive: true, force: true });
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return watchBrowser(browser);
}
