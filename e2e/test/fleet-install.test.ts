// 添加节点 → 一键加入, end to end: the command the console shows, run for real against the running
// control plane (`curl -fsSL <cp>/install/agent.sh | bash -s -- --join <token>`) into a throw-away
// root (GPUCLOUD_INSTALL_ROOT; only systemctl is replaced, the host has no systemd), then the
// service started as its unit says, and the node in 节点 with its GPUs over mutual TLS.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN, ApiClient } from '@gpucloud/control-plane/test-harness';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Supervised, supervise } from './agent-install.js';
import { type Platform, startPlatform, workerPortBase } from './platform.js';

interface NodeView {
  id: number;
  name: string;
  region: string;
  status: string;
  gpu_total: number;
  agent_build: string | null;
}

let platform: Platform;
let agent: Supervised | undefined;
const work = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-e2e-install-'));

beforeAll(async () => {
  platform = await startPlatform({ console: false });
});

afterAll(async () => {
  await platform?.close();
  await agent?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The operator's paste: the served script piped into bash, with the throw-away root. */
function pasteCommand(command: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('bash', ['-c', command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('一键加入', () => {
  it('the command from 添加节点, run on a host, makes a mutual-TLS node with its GPUs; its token is then spent', async () => {
    const admin = new ApiClient(platform.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const made = await admin.request<{ token: string; command: string }>(
      'POST',
      '/api/admin/nodes/join-tokens',
      { region: '安装区', name: 'installed-node' },
    );
    expect(made.status).toBe(201);
    expect(made.body.command).toBe(
      `curl -fsSL ${platform.url}/install/agent.sh | sudo bash -s -- --join ${made.body.token}`,
    );

    const root = path.join(work, 'host');
    const stubs = path.join(work, 'stubs');
    mkdirSync(root);
    mkdirSync(stubs);
    writeFileSync(path.join(stubs, 'systemctl'), '#!/bin/sh\necho "systemctl $*" >> "$RECORD"\n');
    chmodSync(path.join(stubs, 'systemctl'), 0o755);
    const grpcPort = workerPortBase() + 778;
    const hostEnv = {
      ...process.env,
      GPUCLOUD_INSTALL_ROOT: root,
      SYSTEMCTL: path.join(stubs, 'systemctl'),
      RECORD: path.join(root, 'calls.log'),
      DOCKER_HOST: inject('dockerHost'),
    };
    // The console's command as pasted (without sudo: the test runs as root already), plus the
    // options of a host without GPUs listening on loopback.
    const pasted = `${made.body.command.replace('| sudo bash', '| bash')} --simulate-gpus 2xRTX4090 --public-host 127.0.0.1 --listen 127.0.0.1:${grpcPort}`;
    const installed = await pasteCommand(pasted, hostEnv);
    expect(installed.status, installed.stderr).toBe(0);
    const scriptEnded = Date.now();
    const nodeId = Number(/node_id=(\d+)/.exec(installed.stdout)?.[1]);
    expect(nodeId).toBeGreaterThan(0);
    expect(readFileSync(path.join(root, 'calls.log'), 'utf8')).toContain('systemctl restart gpucloud-agent');

    // The service, as its unit starts it: ExecStart with the unit's EnvironmentFile. The host's
    // absolute paths live under the throw-away root here.
    const unit = readFileSync(path.join(root, 'etc/systemd/system/gpucloud-agent.service'), 'utf8');
    expect(unit).toContain(
      'ExecStart=/opt/gpucloud/agent/current/bin/gpucloud-agent --config /etc/gpucloud/agent.json',
    );
    const config = JSON.parse(readFileSync(path.join(root, 'etc/gpucloud/agent.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({ 'tls-mode': 'platform', 'simulate-gpus': '2xRTX4090' });
    for (const [key, value] of Object.entries(config)) {
      if (typeof value === 'string' && value.startsWith('/')) config[key] = path.join(root, value);
    }
    const rooted = path.join(root, 'etc/gpucloud/agent.rooted.json');
    writeFileSync(rooted, JSON.stringify(config));
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const line of readFileSync(path.join(root, 'etc/gpucloud/agent.env'), 'utf8').split('\n')) {
      const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
      if (m) env[m[1] as string] = m[2] as string;
    }
    const state = path.join(root, 'var/lib/gpucloud/state');
    mkdirSync(state, { recursive: true });
    Object.assign(env, {
      DOCKER_HOST: inject('dockerHost'),
      AGENT_BIND_ADDRESS: '127.0.0.1',
      AGENT_PORT_RANGE: `${workerPortBase() + 700}-${workerPortBase() + 749}`,
      AGENT_STATE_DIR: state,
      AGENT_NODE_NAME: `test-e2e-install-${process.pid}`,
      AGENT_TENANT_NETWORK_IDLE: '0',
    });
    const install = path.join(root, 'opt/gpucloud/agent');
    expect(existsSync(path.join(install, 'current/bin/node'))).toBe(true);
    agent = supervise(install, ['--config', rooted], env);

    // In 节点: online, the token's name and region, its two GPUs, the bundle's build.
    const deadline = Date.now() + 60_000;
    let node: NodeView | undefined;
    for (;;) {
      const v = (await admin.request<NodeView>('GET', `/api/admin/nodes/${nodeId}`)).body;
      if (v.status === 'online' && v.gpu_total === 2) {
        node = v;
        break;
      }
      if (Date.now() > deadline) throw new Error(`the node never came online:\n${agent.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`[一键加入] node online with its GPUs ${Date.now() - scriptEnded} ms after the script ended`);
    expect(node).toMatchObject({ name: 'installed-node', region: '安装区' });
    const bundle = readFileSync(path.join(install, 'current/VERSION'), 'utf8');
    expect(JSON.parse(bundle)).toMatchObject({ build: node.agent_build });
    // Mutual TLS from the platform's CA (control-plane/test/fleet-join.test.ts shows the agent
    // refusing a client without the platform's certificate, and plaintext).
    expect((await platform.cp.services.nodes.require(nodeId)).tls).toBe('platform');

    // The same command again (the token is spent): refused with the reason, nothing made.
    const again = await pasteCommand(pasted, { ...hostEnv, GPUCLOUD_INSTALL_ROOT: path.join(work, 'again') });
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('加入令牌无效或已过期');
    const nodes = (await admin.request<{ items: NodeView[] }>('GET', '/api/admin/nodes')).body.items;
    expect(nodes.filter((n) => n.name.startsWith('installed-node'))).toHaveLength(1);
  });
});
