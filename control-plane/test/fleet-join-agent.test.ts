// The agent's own join (node-agent/src/fleet/join.ts, what `gpucloud-agent join` runs) against
// this control plane's POST /api/agent/join, then the agent started from the files it wrote: the
// node comes online with its GPUs over mutual TLS, and a used token is refused.
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { configFromCli, joinControlPlane, type RunningAgent, startAgent } from '@gpucloud/node-agent';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningControlPlane } from '../src/platform.js';
import { reserveAgentPortRange } from './agents.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('gpucloud-agent join against the control plane', () => {
  let cp: RunningControlPlane;
  let admin: ApiClient;
  let work: string;
  let agent: RunningAgent | undefined;

  beforeAll(async () => {
    cp = await startTestControlPlane();
    admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'gpucloud-join-agent-'));
  });
  afterAll(async () => {
    await agent?.close(500);
    await cp?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('joins with a token; the agent started from the written files is online with its GPUs', async () => {
    const created = await admin.request<{ token: string }>('POST', '/api/admin/nodes/join-tokens', {
      region: '华东一区',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const port = await freePort();
    const configDir = path.join(work, 'etc');
    const warnings: string[] = [];
    const options = {
      controlPlane: cp.url,
      token: created.body.token,
      configDir,
      listen: `127.0.0.1:${port}`,
      publicHost: '127.0.0.1',
      nodeName: 'joined-gpu-1',
    };
    const joined = await joinControlPlane(options, (line) => warnings.push(line));
    expect(warnings.join('\n')).toMatch(/plain http/);
    expect(joined.serverName).toBe(`node-${joined.nodeId}.gpucloud.internal`);
    const row = await cp.knex('nodes').where({ id: joined.nodeId }).first();
    expect(row).toMatchObject({
      name: 'joined-gpu-1',
      region: '华东一区',
      tls: 'platform',
      address: `127.0.0.1:${port}`,
      public_host: '127.0.0.1',
    });

    // The same token again: refused by the control plane, nothing overwritten.
    const before = await fs.readFile(joined.files.certificate, 'utf8');
    await expect(joinControlPlane(options, () => undefined)).rejects.toThrow(/加入令牌无效或已过期/);
    expect(await fs.readFile(joined.files.certificate, 'utf8')).toBe(before);

    const env = await fs.readFile(joined.files.env, 'utf8');
    const token = /^AGENT_TOKEN=(.+)$/m.exec(env)?.[1] ?? '';
    expect(token).toBe(row.token);
    const config = configFromCli({ argv: ['--config', joined.files.config], env: { AGENT_TOKEN: token } });
    if (config === 'help' || !config.tls) throw new Error('the written config has no TLS');
    const portStart = reserveAgentPortRange();
    agent = await startAgent(
      {
        token: config.token,
        listen: config.listen,
        tls: config.tls,
        nodeName: config.nodeName,
        publicHost: config.publicHost,
        simulateGpus: '2xA100',
        dockerHost: inject('dockerHost'),
        toolboxDir: inject('toolboxDir'),
        bindAddress: '127.0.0.1',
        portRange: `${portStart}-${portStart + 199}`,
        volumeRoot: path.join(work, 'volumes'),
        stateDir: path.join(work, 'state'),
        tenantNetworkIdle: 0,
        heartbeatIntervalMs: 500,
      },
      { log: () => undefined },
    );
    const deadline = Date.now() + 60_000;
    let view: { status?: string; gpu_total?: number } = {};
    while (Date.now() < deadline) {
      view = (await admin.request<typeof view>('GET', `/api/admin/nodes/${joined.nodeId}`)).body;
      if (view.status === 'online' && view.gpu_total === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(view).toMatchObject({ status: 'online', gpu_total: 2 });
    const gpus = await cp.knex('node_gpus').where({ node_id: joined.nodeId });
    expect(gpus.map((g: { model: string }) => g.model)).toEqual([
      'NVIDIA A100-SXM4-80GB',
      'NVIDIA A100-SXM4-80GB',
    ]);
  }, 120_000);
});
