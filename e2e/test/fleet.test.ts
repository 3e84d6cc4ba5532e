// Issue 19, 升级 end to end: an agent installed from a real bundle (an older version of this
// control plane's own bundle), run under a supervisor that restarts it (systemd's
// Restart=always), joined with a join token; a user rents a container on it and keeps an SSH
// session open while the admin upgrades the node. The session keeps working, the node comes back
// with the new version, and Docker never restarted the container.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN, ApiClient } from '@gpucloud/control-plane/test-harness';
import Docker from 'dockerode';
import { Client } from 'ssh2';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { agentBundle } from '../../control-plane/src/modules/fleet/bundle.js';
import { bundleAsVersion, installBundle, type Supervised, supervise } from './agent-install.js';
import { type Platform, startPlatform, workerPortBase } from './platform.js';

interface NodeView {
  id: number;
  status: string;
  agent_version: string | null;
  agent_build: string | null;
  agent_outdated: boolean;
  upgrading_since: string | null;
  upgrade_error: string | null;
  gpu_total: number;
}

interface Container {
  container_id: string;
  ssh_server: string;
  ssh_port: number;
  password: string;
  status: string;
}

const run = promisify(execFile);

let platform: Platform;
let agent: Supervised | undefined;
const root = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-e2e-fleet-'));

async function until<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${agent ? `\nagent output:\n${agent.output()}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** An SSH connection kept open across the upgrade; `run` opens a channel on it for each command. */
function openSsh(c: Container): Promise<{ run(command: string): Promise<string>; close(): void }> {
  return new Promise((resolve, reject) => {
    const conn = new Client();
    conn
      .on('ready', () =>
        resolve({
          run: (command) =>
            new Promise((ok, fail) => {
              conn.exec(command, (err, stream) => {
                if (err) return fail(err);
                let out = '';
                stream.on('data', (d: Buffer) => {
                  out += d.toString();
                });
                stream.stderr.on('data', (d: Buffer) => {
                  out += d.toString();
                });
                stream.on('close', () => ok(out));
              });
            }),
          close: () => conn.end(),
        }),
      )
      .on('error', reject)
      .connect({
        host: c.ssh_server,
        port: c.ssh_port,
        username: 'root',
        password: c.password,
        readyTimeout: 20_000,
        hostVerifier: () => true,
      });
  });
}

beforeAll(async () => {
  platform = await startPlatform({ console: false });
});

afterAll(async () => {
  // The platform destroys the live containers (this node's too, while its agent still runs).
  await platform?.close();
  await agent?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('a GPU host joined with a token', () => {
  it('is a mutual-TLS node (its token spent, an expired one refused), is upgraded and drained while an SSH session and the container keep running', async () => {
    const admin = new ApiClient(platform.url);
    await admin.login(ADMIN.username, ADMIN.password);

    // The control plane's bundle, and the same agent as an older version, installed on the "host".
    const bundle = await agentBundle();
    const old = await bundleAsVersion(bundle, '0.0.9', path.join(root, 'bundles'));
    expect(old.build).not.toBe(bundle.build);
    const install = path.join(root, 'opt', 'gpucloud', 'agent');
    installBundle(old, install);
    const etc = path.join(root, 'etc', 'gpucloud');
    const [volumes, state] = ['volumes', 'state'].map((d) => path.join(root, d));
    for (const dir of [etc, volumes as string, state as string]) mkdirSync(dir, { recursive: true });
    const base = workerPortBase();
    const grpcPort = base + 777;
    const nodeName = `test-e2e-upgrade-${process.pid}`;

    // Joined with a one-time token (helper A's API, the agent's join subcommand).
    const made = await admin.request<{ token: string }>('POST', '/api/admin/nodes/join-tokens', {
      region: '测试区',
      name: 'upgrade-node',
    });
    expect(made.status).toBe(201);
    // Asynchronously: the control plane answering the join runs in this process.
    const { stdout: joined } = await run(
      path.join(install, 'current', 'bin', 'gpucloud-agent'),
      [
        'join',
        '--control-plane',
        platform.url,
        '--token',
        made.body.token,
        '--config-dir',
        etc,
        '--listen',
        `127.0.0.1:${grpcPort}`,
        '--address',
        `127.0.0.1:${grpcPort}`,
        '--public-host',
        '127.0.0.1',
        '--node-name',
        'upgrade-node',
      ],
      { encoding: 'utf8' },
    );
    const nodeId = Number(/node_id=(\d+)/.exec(joined)?.[1]);
    expect(nodeId).toBeGreaterThan(0);
    // The node talks mutual TLS from the platform's CA; the token is spent.
    expect((await platform.cp.services.nodes.require(nodeId)).tls).toBe('platform');
    const csr = execFileSync(
      'openssl',
      [
        'req',
        '-new',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        '/dev/null',
        '-subj',
        '/CN=again',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, RANDFILE: '/dev/null' },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    ).replace(/^[\s\S]*?(-----BEGIN CERTIFICATE REQUEST-----)/, '$1');
    const reuse = await new ApiClient(platform.url).request<{ detail: string }>('POST', '/api/agent/join', {
      token: made.body.token,
      csr_pem: csr,
      node_name: 'again',
      public_host: '127.0.0.1',
      grpc_port: grpcPort + 1,
    });
    expect(reuse.status).toBe(401);
    expect(reuse.body.detail).toBe('加入令牌无效或已过期');
    // An expired token (its hour has passed) is refused the same way, and creates nothing.
    const late = await admin.request<{ token: string }>('POST', '/api/admin/nodes/join-tokens', {
      region: '测试区',
    });
    await platform.cp
      .knex('node_join_tokens')
      .orderBy('id', 'desc')
      .limit(1)
      .update({ expires_at: new Date(Date.now() - 1000) });
    const nodesBefore = (await admin.request<{ total: number }>('GET', '/api/admin/nodes')).body.total;
    const expired = await new ApiClient(platform.url).request<{ detail: string }>('POST', '/api/agent/join', {
      token: late.body.token,
      csr_pem: csr,
      node_name: 'late',
      public_host: '127.0.0.1',
      grpc_port: grpcPort + 2,
    });
    expect(expired.status).toBe(401);
    expect((await admin.request<{ total: number }>('GET', '/api/admin/nodes')).body.total).toBe(nodesBefore);
    // systemd's EnvironmentFile: the node token the join wrote.
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const line of readFileSync(path.join(etc, 'agent.env'), 'utf8').split('\n')) {
      const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (m) env[m[1] as string] = m[2] as string;
    }
    Object.assign(env, {
      AGENT_SIMULATE_GPUS: '2xRTX4090',
      DOCKER_HOST: inject('dockerHost'),
      AGENT_BIND_ADDRESS: '127.0.0.1',
      AGENT_PORT_RANGE: `${base + 600}-${base + 699}`,
      AGENT_VOLUME_ROOT: volumes,
      AGENT_STATE_DIR: state,
      AGENT_TOOLBOX_DIR: inject('toolboxDir'),
      AGENT_NODE_NAME: nodeName,
      AGENT_TENANT_NETWORK_IDLE: '0',
    });
    agent = supervise(install, ['--config', path.join(etc, 'agent.json')], env);

    const nodeView = async () => (await admin.request<NodeView>('GET', `/api/admin/nodes/${nodeId}`)).body;
    const before = await until('the joined node online with the old agent', async () => {
      const v = await nodeView();
      return v.status === 'online' && v.agent_build === old.build ? v : undefined;
    });
    expect(before).toMatchObject({ agent_version: '0.0.9', agent_outdated: true, gpu_total: 2 });

    // A user rents a container on it and opens an SSH session.
    const node = await platform.cp.services.nodes.require(nodeId);
    await platform.cp.services.products.ensureDefaultProduct(node, 199);
    const product = (await platform.cp.services.products.list({})).find((p) => p.node_id === nodeId);
    if (!product) throw new Error('no product on the joined node');
    const user = new ApiClient(platform.url);
    await user.register('upgrader');
    const frameworks = await user.request<{ id: number; name: string }[]>('GET', '/api/frameworks');
    const baseFramework = frameworks.body.find((f) => f.name === 'Base');
    if (!baseFramework) throw new Error('no Base framework');
    const versions = await user.request<{ id: number }[]>(
      'GET',
      `/api/frameworks/${baseFramework.id}/versions`,
    );
    const bought = await user.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${product.id}/purchase`,
      {
        instanceName: 'upgrade-box',
        gpuCount: 1,
        framework: baseFramework.id,
        frameworkVersion: versions.body[0]?.id,
        agreeTerms: true,
        billing_type: 'hourly',
        duration: 1,
        total_price: Math.round(product.price * 100) / 100,
      },
    );
    expect(bought.status).toBe(201);
    // Running once its SSH server answers (a loaded host may still say 启动中 for a moment).
    const container = await until('the container running', async () => {
      const c = (await user.request<Container>('GET', `/api/containers/${bought.body.container_id}`)).body;
      return c.status === 'running' ? c : undefined;
    });
    const docker = new Docker({ socketPath: inject('dockerHost').replace(/^unix:\/\//, '') });
    const dockerContainer = docker.getContainer(`gpucloud-${container.container_id}`);
    const startedAt = (await dockerContainer.inspect()).State.StartedAt;
    const session = await until('the SSH session', () => openSsh(container).catch(() => undefined), 30_000);
    try {
      expect(await session.run('echo before-$((1+1))')).toContain('before-2');
      await session.run('echo kept > /root/upgrade-marker');

      // 升级.
      const upgraded = await admin.request<{ from: unknown; to: unknown }>(
        'POST',
        `/api/admin/nodes/${nodeId}/upgrade`,
      );
      expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(202);
      expect(upgraded.body).toEqual({
        from: { version: '0.0.9', build: old.build },
        to: { version: bundle.version, build: bundle.build },
      });
      const after = await until(
        'the node back with the new agent',
        async () => {
          const v = await nodeView();
          return v.status === 'online' && v.agent_build === bundle.build && !v.upgrading_since
            ? v
            : undefined;
        },
        120_000,
      );
      expect(after).toMatchObject({
        agent_version: bundle.version,
        agent_outdated: false,
        upgrade_error: null,
      });
      // The agent restarted once (through its supervisor), into the new version.
      expect(agent.starts()).toBe(2);
      expect(readlinkSync(path.join(install, 'current'))).toBe(
        path.join('versions', `${bundle.version}-${bundle.build}`),
      );
      expect(existsSync(path.join(install, 'versions', `${old.version}-${old.build}`))).toBe(true);

      // The same SSH session still works; the container was never restarted.
      expect(await session.run('echo after-$((2+2)); cat /root/upgrade-marker')).toMatch(/after-4\s+kept/);
      const inspected = await dockerContainer.inspect();
      expect(inspected.State.Running).toBe(true);
      expect(inspected.State.StartedAt).toBe(startedAt);
      expect(inspected.RestartCount).toBe(0);
      // Running as before (after its restart the agent takes Docker's health check's word for it).
      await until(
        'the container shown running',
        async () =>
          (await user.request<Container>('GET', `/api/containers/${container.container_id}`)).body.status ===
          'running',
        30_000,
      );

      // Upgraded already: a second upgrade is refused.
      const again = await admin.request<{ detail: string }>('POST', `/api/admin/nodes/${nodeId}/upgrade`);
      expect(again.status).toBe(409);
      expect(again.body.detail).toBe('节点代理已是最新版本');

      // 维护: the product leaves the market, a purchase is refused, the running container stays.
      const offered = async () =>
        (await user.request<{ items: { id: number }[] }>('GET', '/api/cloud-products')).body.items.some(
          (p) => p.id === product.id,
        );
      expect(await offered()).toBe(true);
      const drained = await admin.request('POST', `/api/admin/nodes/${nodeId}/maintenance`, {
        until: new Date(Date.now() + 86_400_000).toISOString(),
        reason: '更换电源',
      });
      expect(drained.status, JSON.stringify(drained.body)).toBeLessThan(300);
      expect(await offered()).toBe(false);
      const refused = await user.request<{ detail: string }>(
        'POST',
        `/api/cloud-products/${product.id}/purchase`,
        {
          instanceName: 'during-maintenance',
          gpuCount: 1,
          framework: baseFramework.id,
          frameworkVersion: versions.body[0]?.id,
          agreeTerms: true,
          billing_type: 'hourly',
          duration: 1,
          total_price: Math.round(product.price * 100) / 100,
        },
      );
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe('节点维护中，暂不可购买');
      expect(await session.run('echo still-here')).toContain('still-here');
      expect((await dockerContainer.inspect()).State.StartedAt).toBe(startedAt);
      expect((await admin.request('DELETE', `/api/admin/nodes/${nodeId}/maintenance`)).status).toBeLessThan(
        300,
      );
      expect(await offered()).toBe(true);
    } finally {
      session.close();
    }
  });
});
