// Issue 19, agent versions and 升级: the versions each node's agent reports, the refusal of an
// agent whose protocol the control plane does not speak, POST /api/admin/nodes/{id}/upgrade
// against real agents and the real bundle, and a user's log WebSocket that keeps going while the
// agent restarts (closed and started again on the same port, as an upgrade does).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningAgent, startAgent } from '@gpucloud/node-agent';
import { agentServiceDefinition } from '@gpucloud/proto';
import * as grpc from '@grpc/grpc-js';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { agentBundle } from '../src/modules/fleet/bundle.js';
import { nodeReply } from '../src/modules/nodes/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { reserveAgentPortRange, startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from './harness.js';
import { addNodeWithProduct, destroyAllContainers, type MarketFixture, purchaseSettled } from './purchase.js';

interface NodeView {
  id: number;
  status: string;
  agent_version: string | null;
  agent_build: string | null;
  agent_protocol: number | null;
  agent_outdated: boolean;
  incompatible_reason: string;
  upgrading_since: string | null;
  upgrade_error: string | null;
}

/**
 * Host ports of this file's agents' containers, from its worker's block below the kernel's
 * ephemeral ports (35500 and up once failed: a test's own connection held a container's port).
 */
const PORTS = {
  logs: reserveAgentPortRange(),
  source: reserveAgentPortRange(),
  installed: reserveAgentPortRange(),
};

let cp: RunningControlPlane;
let admin: ApiClient;
const cleanups: (() => Promise<void> | void)[] = [];
const docker = () => new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const nodeView = async (id: number) => (await admin.request<NodeView>('GET', `/api/admin/nodes/${id}`)).body;

beforeAll(async () => {
  cp = await startTestControlPlane({
    nodeOfflineAfterMs: 4000,
    monitorSyncIntervalMs: 500,
    heartbeatIntervalMs: 500,
  });
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  await destroyAllContainers(cp);
  await cp?.close();
  for (const c of cleanups.reverse()) await c();
});

describe('agent versions', () => {
  it('records what the agent runs and refuses an agent whose protocol is not spoken', async () => {
    // An agent of a later contract (protocol 2): it answers and beats like any agent.
    const token = randomBytes(12).toString('hex');
    const server = new grpc.Server();
    let watches = 0;
    let cancelled = 0;
    server.addService(agentServiceDefinition(), {
      GetHostInfo: (_call: unknown, cb: grpc.sendUnaryData<unknown>) =>
        cb(null, {
          hostname: 'future-host',
          agentVersion: '9.0.0',
          agentBuild: 'f00000000000',
          protocolVersion: 2,
          dockerAvailable: true,
          simulated: true,
          portRangeStart: 30000,
          portRangeEnd: 30100,
          gpus: [],
        }),
      WatchEvents: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        watches++;
        const timer = setInterval(() => call.write({ heartbeat: { dockerAvailable: true } }), 200);
        call.on('cancelled', () => {
          cancelled++;
          clearInterval(timer);
        });
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    cleanups.push(() => void server.forceShutdown());
    const added = await admin.request<{ id: number; status: string }>('POST', '/api/admin/nodes', {
      name: 'future',
      address: `127.0.0.1:${port}`,
      token,
      region: '测试区',
    });
    expect(added.status).toBe(201);
    expect(added.body.status).toBe('offline');
    await until('the monitor dialled the future agent', async () => watches > 0 && cancelled > 0);
    // Heartbeats keep coming from such an agent; the node stays offline all the same.
    await new Promise((r) => setTimeout(r, 1500));
    const view = await nodeView(added.body.id);
    expect(view).toMatchObject({
      status: 'offline',
      agent_version: '9.0.0',
      agent_build: 'f00000000000',
      agent_protocol: 2,
      incompatible_reason: '节点代理协议版本 2 不受支持（控制面支持 1）',
    });
    expect((await cp.knex('nodes').where({ id: added.body.id }).first('status')).status).toBe('offline');
    // A heartbeat written anyway (another replica, an old monitor) does not bring it online.
    await cp.services.nodes.heartbeat(added.body.id, true);
    expect((await nodeView(added.body.id)).status).toBe('offline');
    // Nor is it upgraded over a protocol it does not speak: the reason comes back.
    const upgrade = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${added.body.id}/upgrade`,
    );
    expect(upgrade.status).toBe(409);
    expect(upgrade.body.detail).toMatch(/^节点代理协议版本 2 不受支持（控制面支持 1），无法在线升级/);
    await admin.request('DELETE', `/api/admin/nodes/${added.body.id}`);
  });
});

describe('log WebSocket across an agent restart', () => {
  let agent: TestAgent;
  let market: MarketFixture;
  const volumeRoot = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-volumes-'));
  cleanups.push(async () => {
    await agent?.close();
    rmSync(volumeRoot, { recursive: true, force: true });
  });

  beforeAll(async () => {
    agent = await startTestAgent({ volumeRoot, portStart: PORTS.logs });
    market = await addNodeWithProduct(cp, agent, 'logs-restart');
  });

  it('resumes the stream with no line lost or repeated', async () => {
    const user = new ApiClient(cp.url);
    await user.register('logresume1');
    const id = await purchaseSettled(cp, user, market);
    const container = docker().getContainer(`gpucloud-${id}`);
    // Lines written to the container's own stdout (its log), from outside the agent.
    const say = async (from: number, to: number) => {
      const script = Array.from({ length: to - from + 1 }, (_, i) => `echo mark-${from + i}`).join('; ');
      const exec = await container.exec({ Cmd: ['sh', '-c', `(${script}) > /proc/1/fd/1`] });
      const stream = await exec.start({});
      await new Promise((resolve) => {
        stream.on('end', resolve);
        stream.resume();
      });
    };
    const ws = new WebSocket(
      `${cp.url.replace('http', 'ws')}/api/containers/ws/${id}/logs?token=${user.token}`,
    );
    let got = '';
    let closed: number | undefined;
    ws.on('message', (data) => {
      got += data.toString();
    });
    ws.on('close', (code) => {
      closed = code;
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await say(1, 5);
    await until('the first lines', async () => got.includes('mark-5\n'));

    // The agent goes (as an upgrade's restart does), lines are written meanwhile, it comes back.
    const port = Number(agent.address.split(':')[1]);
    await agent.close();
    await say(6, 10);
    agent = await startTestAgent({
      listen: `127.0.0.1:${port}`,
      token: agent.token,
      portStart: PORTS.logs,
      volumeRoot,
    });
    await say(11, 15);
    await until('the lines after the restart', async () => got.includes('mark-15\n'), 40_000);
    expect(closed).toBeUndefined();
    const marks = [...got.matchAll(/mark-(\d+)\n/g)].map((m) => Number(m[1]));
    expect(marks).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    // No timestamp reaches the viewer.
    expect(got).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z mark/);
    ws.close();
  });
});

describe('POST /api/admin/nodes/{id}/upgrade', () => {
  let fromSource: TestAgent;
  let sourceNode: number;
  let installed: RunningAgent | undefined;
  let installedNode: number;
  let restarts = 0;
  const install = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-install-'));
  const state = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-state-'));
  const volumes = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-volumes-'));
  cleanups.push(async () => {
    await fromSource?.close();
    await installed?.close();
    for (const dir of [install, state, volumes]) rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    fromSource = await startTestAgent({ portStart: PORTS.source });
    sourceNode = (await addNodeWithProduct(cp, fromSource, 'from-source')).nodeId;
    // An agent that runs from an install (versions/, current), restarting through the test.
    mkdirSync(path.join(install, 'versions', '0.0.1-old000000000'), { recursive: true });
    symlinkSync(path.join('versions', '0.0.1-old000000000'), path.join(install, 'current'));
    const portStart = PORTS.installed;
    installed = await startAgent(
      {
        token: randomBytes(12).toString('hex'),
        listen: '127.0.0.1:0',
        simulateGpus: '2xRTX4090',
        dockerHost: inject('dockerHost'),
        toolboxDir: inject('toolboxDir'),
        bindAddress: '127.0.0.1',
        publicHost: '127.0.0.1',
        portRange: `${portStart}-${portStart + 199}`,
        volumeRoot: volumes,
        stateDir: state,
        nodeName: `test-upgrade-${randomBytes(3).toString('hex')}`,
        tenantNetworkIdle: 0,
        heartbeatIntervalMs: 500,
        installDir: install,
      },
      { log: () => {}, restartAfterUpgrade: () => void restarts++ },
    );
    const res = await admin.request<{ id: number }>('POST', '/api/admin/nodes', {
      name: 'installed',
      address: installed.address,
      token: installed.config.token,
      region: '测试区',
    });
    installedNode = res.body.id;
  }, 120_000);

  it('shows each node’s agent version in the node view', async () => {
    const view = await until('the versions read', async () => {
      const v = await nodeView(sourceNode);
      return v.agent_version ? v : undefined;
    });
    expectServed(nodeReply, view);
    expect(view).toMatchObject({
      status: 'online',
      agent_build: 'source',
      agent_protocol: 1,
      incompatible_reason: '',
      agent_outdated: false,
      upgrading_since: null,
    });
  });

  it('refuses an agent that does not run from a bundle, and an offline node, in Chinese', async () => {
    const res = await admin.request<{ detail: string }>('POST', `/api/admin/nodes/${sourceNode}/upgrade`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('此节点代理不是从安装包运行的，无法在线升级');
    const view = await nodeView(sourceNode);
    expect(view.upgrading_since).toBeNull();
    expect(view.upgrade_error).toBe('此节点代理不是从安装包运行的，无法在线升级');
    await fromSource.close();
    await until('the node offline', async () => (await nodeView(sourceNode)).status === 'offline');
    const offline = await admin.request<{ detail: string }>('POST', `/api/admin/nodes/${sourceNode}/upgrade`);
    expect(offline.status).toBe(409);
    expect(offline.body.detail).toBe('节点离线，无法升级');
    const missing = await admin.request<{ detail: string }>('POST', '/api/admin/nodes/999999/upgrade');
    expect(missing.status).toBe(404);
  }, 180_000);

  it('streams the bundle to an installed agent, which switches current and restarts; late ones fail', async () => {
    const bundle = await agentBundle();
    const res = await admin.request<{ from: unknown; to: unknown }>(
      'POST',
      `/api/admin/nodes/${installedNode}/upgrade`,
    );
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      from: { version: expect.any(String), build: 'source' },
      to: { version: bundle.version, build: bundle.build },
    });
    const name = `${bundle.version}-${bundle.build}`;
    expect(readlinkSync(path.join(install, 'current'))).toBe(path.join('versions', name));
    expect(existsSync(path.join(install, 'versions', name, 'bin', 'node'))).toBe(true);
    await until('the restart asked for', async () => restarts === 1);
    const during = await nodeView(installedNode);
    expect(during.upgrading_since).not.toBeNull();
    // A second upgrade while this one is under way is refused.
    const again = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${installedNode}/upgrade`,
    );
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('节点正在升级中，请稍候');

    // This agent runs from source and cannot come back as the new build: the upgrade times out.
    await cp
      .knex('nodes')
      .where({ id: installedNode })
      .update({ upgrading_since: new Date(Date.now() - 6 * 60_000) });
    await until('the upgrade timed out', async () => (await nodeView(installedNode)).upgrade_error);
    const late = await nodeView(installedNode);
    expect(late.upgrading_since).toBeNull();
    expect(late.upgrade_error).toMatch(/^升级超时/);

    // A node that runs the bundle's build already is not upgraded again.
    await cp
      .knex('nodes')
      .where({ id: installedNode })
      .update({ agent_version: bundle.version, agent_build: bundle.build });
    const current = await admin.request<{ detail: string }>(
      'POST',
      `/api/admin/nodes/${installedNode}/upgrade`,
    );
    expect(current.status).toBe(409);
    expect(current.body.detail).toBe('节点代理已是最新版本');
  }, 180_000);
});
