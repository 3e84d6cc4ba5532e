import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Container } from '@gpucloud/control-plane/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { fakeApi, invoke } from './test-support.js';

let home: string;
let api: Awaited<ReturnType<typeof fakeApi>> | undefined;

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-cli-run-'));
});
afterEach(async () => {
  await api?.close();
  api = undefined;
  rmSync(home, { recursive: true, force: true });
});

const box = {
  container_id: 'c-abc123',
  name: '训练机',
  status: 'running',
  pull_progress: null,
  gpu_type: 'RTX4090',
  gpu_count: 2,
  no_gpu: false,
  region: '本地',
  ssh_server: '127.0.0.1',
  ssh_port: 24801,
  password: 'pw',
  total_cost: 1.5,
} as Partial<Container>;
const pulling = {
  ...box,
  container_id: 'c-def456',
  name: 'pull',
  status: 'pulling',
  pull_progress: 40,
  ssh_port: null,
};

/** A port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const env = (url: string, extra: Record<string, string> = {}) => ({
  GPUCLOUD_URL: url,
  GPUCLOUD_API_KEY: 'sk-test',
  PATH: process.env.PATH,
  ...extra,
});

describe('gpucloud, run against a stand-in API', () => {
  it('ls prints a table for people and the API’s items for --json, sending the API key', async () => {
    api = await fakeApi({ 'GET /api/containers': { body: { items: [box, pulling], total: 2 } } });
    const zh = await invoke(['ls'], { env: env(api.url, { LANG: 'zh_CN.UTF-8' }), homeDir: home });
    expect(zh.code).toBe(0);
    const lines = zh.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^编号\s+名称\s+状态\s+GPU\s+地区\s+SSH\s+费用$/);
    expect(lines[1]).toMatch(
      /^c-abc123\s+训练机\s+运行中\s+RTX4090 ×2\s+本地\s+ssh -p 24801 root@127\.0\.0\.1\s+¥1\.50$/,
    );
    expect(lines[2]).toMatch(/^c-def456\s+pull\s+拉取镜像中 40%\s+RTX4090 ×2\s+本地\s+-\s+¥1\.50$/);
    expect(api.requests[0]?.headers['x-api-key']).toBe('sk-test');

    const en = await invoke(['ls'], { env: env(api.url, { LANG: 'en_US.UTF-8' }), homeDir: home });
    expect(en.stdout).toMatch(/^ID\s+NAME\s+STATUS/);
    expect(en.stdout).toContain('pulling image 40%');

    const json = await invoke(['ls', '--json'], { env: env(api.url), homeDir: home });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([box, pulling]);
  });

  it('an API error prints its detail and code and exits 1; --json makes it a JSON object', async () => {
    api = await fakeApi({
      'GET /api/billing/balance': { status: 401, body: { detail: 'API 密钥无效', code: 'INVALID_API_KEY' } },
    });
    const out = await invoke(['balance'], { env: env(api.url), homeDir: home });
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe('gpucloud: error: API 密钥无效 (INVALID_API_KEY)\n');
    const zh = await invoke(['balance'], { env: env(api.url, { LC_ALL: 'zh_CN.UTF-8' }), homeDir: home });
    expect(zh.stderr).toBe('gpucloud: 错误: API 密钥无效 (INVALID_API_KEY)\n');
    const json = await invoke(['balance', '--json'], { env: env(api.url), homeDir: home });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toEqual({
      error: { detail: 'API 密钥无效', code: 'INVALID_API_KEY', status: 401 },
    });
  });

  it('usage errors exit 2 with the command’s usage; an unreachable server exits 1', async () => {
    const unknown = await invoke(['frobnicate'], { env: {}, homeDir: home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command: frobnicate');
    const badOption = await invoke(['ls', '--all'], { env: env('http://127.0.0.1:1'), homeDir: home });
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("Unknown option '--all'");
    expect(badOption.stderr).toContain('Usage: gpucloud ls');
    const noLogin = await invoke(['ls'], { env: { LANG: 'zh_CN.UTF-8' }, homeDir: home });
    expect(noLogin.code).toBe(2);
    expect(noLogin.stderr).toContain('尚未登录');
    const noName = await invoke(['logs'], { env: env('http://127.0.0.1:1'), homeDir: home });
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('missing <name>');
    const closed = await closedPort();
    const down = await invoke(['balance'], { env: env(`http://127.0.0.1:${closed}`), homeDir: home });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`cannot reach http://127.0.0.1:${closed}: ECONNREFUSED`);
    const help = await invoke(['ssh', '--help'], { env: {}, homeDir: home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: gpucloud ssh <name>');
  });

  it('login checks the key with whoami and saves URL and key 0600; a refused key saves nothing', async () => {
    api = await fakeApi({
      'GET /api/mcp/whoami': (req) =>
        req.headers['x-api-key'] === 'sk-good'
          ? { body: { id: 7, username: 'alice', via: 'api_key' } }
          : { status: 401, body: { detail: '请先登录', code: 'UNAUTHORIZED' } },
    });
    const xdg = path.join(home, 'xdg');
    const refused = await invoke(['login', '--url', api.url, '--api-key', 'sk-bad'], {
      env: { XDG_CONFIG_HOME: xdg },
      homeDir: home,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('请先登录 (UNAUTHORIZED)');
    expect(() => statSync(path.join(xdg, 'gpucloud', 'config.json'))).toThrow();

    // The key from standard input (not on the command line, where `ps` shows it).
    const ok = await invoke(['login', '--url', `${api.url}/`, '--json'], {
      env: { XDG_CONFIG_HOME: xdg },
      homeDir: home,
      stdin: 'sk-good\n',
    });
    expect(ok.code).toBe(0);
    const file = path.join(xdg, 'gpucloud', 'config.json');
    expect(JSON.parse(ok.stdout)).toEqual({ url: api.url, username: 'alice', user_id: 7, config: file });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: api.url, api_key: 'sk-good' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);

    // The saved login is used from now on.
    const who = await invoke(['balance'], { env: { XDG_CONFIG_HOME: xdg }, homeDir: home });
    expect(api.requests.at(-1)?.headers['x-api-key']).toBe('sk-good');
    expect(who.code).toBe(1); // the stand-in has no balance route: its 404 detail
    expect(who.stderr).toContain('接口不存在 (NOT_FOUND)');
  });

  it('create sends the console’s purchase with the server’s total and asks for --yes off a terminal', async () => {
    api = await fakeApi({
      'GET /api/cloud-products/3': {
        body: { id: 3, name: 'local', gpu_type: 'RTX4090', price: 1.99, gpu_available: 8 },
      },
      'GET /api/frameworks': {
        body: [
          { id: 1, name: 'PyTorch', ports: {} },
          { id: 2, name: 'Base', ports: {} },
        ],
      },
      'GET /api/frameworks/2/versions': {
        body: [{ id: 21, framework_id: 2, version: 'busybox', ports: { ssh: 22 } }],
      },
      'POST /api/cloud-products/3/purchase': {
        status: 201,
        body: { container_id: 'c-new123', status: 'creating' },
      },
    });
    const args = ['create', '--product', '3', '--framework', 'base', '--gpus', '2', '--billing', 'daily'];
    const unconfirmed = await invoke(args, { env: env(api.url), homeDir: home });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    expect(api.requests.some((r) => r.method === 'POST')).toBe(false);

    const out = await invoke(
      [...args, '--name', 'box', '--port', '12345', '--env', 'A=b=c', '--yes', '--json'],
      {
        env: env(api.url),
        homeDir: home,
      },
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ container_id: 'c-new123', status: 'creating' });
    const post = api.requests.find((r) => r.method === 'POST');
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(post?.body).toEqual({
      instanceName: 'box',
      gpuCount: 2,
      needExpand: false,
      imageType: 'public',
      framework: 2,
      frameworkVersion: 21,
      frame_ports: { ssh: 22 },
      custom_ports: [12345],
      agreeTerms: true,
      mounts: [],
      billing_type: 'daily',
      duration: 1,
      env: { A: 'b=c' },
      total_price: 90.74, // 1.99 × 2 × 1 day × 24 h × 95%
    });
  });

  it('ssh runs the ssh client with the container’s port and, without a key of the user’s, its password through sshpass', async () => {
    api = await fakeApi({ 'GET /api/containers': { body: { items: [box], total: 1 } } });
    const bin = path.join(home, 'bin');
    mkdirSync(bin);
    for (const p of ['ssh', 'sshpass']) {
      writeFileSync(path.join(bin, p), '#!/bin/sh\n');
      chmodSync(path.join(bin, p), 0o755);
    }
    const out = await invoke(['ssh', '训练机', '--', 'echo', 'hello'], {
      env: { ...env(api.url), PATH: bin, XDG_CONFIG_HOME: path.join(home, 'cfg') },
      homeDir: home,
      programExits: [7],
    });
    expect(out.code).toBe(7); // ssh's own exit status
    expect(out.programs).toHaveLength(1);
    const [call] = out.programs;
    expect(call?.command).toBe(path.join(bin, 'sshpass'));
    expect(call?.env.SSHPASS).toBe('pw');
    expect(call?.args).toEqual([
      '-e',
      path.join(bin, 'ssh'),
      '-o',
      'PubkeyAuthentication=no',
      '-p',
      '24801',
      '-o',
      'HostKeyAlias=gpucloud-c-abc123',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `UserKnownHostsFile=${path.join(home, 'cfg', 'gpucloud', 'known_hosts')}`,
      'root@127.0.0.1',
      'echo',
      'hello',
    ]);

    // With a key of the user's that the container takes (the quiet probe exits 0): no password.
    const withKey = await invoke(['ssh', 'c-abc123'], {
      env: { ...env(api.url), PATH: bin, SSH_AUTH_SOCK: '/tmp/agent.sock' },
      homeDir: home,
      programExits: [0, 0],
    });
    expect(withKey.programs.map((p) => [path.basename(p.command), p.quiet === true])).toEqual([
      ['ssh', true],
      ['ssh', false],
    ]);
    expect(withKey.programs[0]?.args).toContain('BatchMode=yes');
    expect(withKey.programs[1]?.env.SSHPASS).toBeUndefined();

    const unknown = await invoke(['ssh', 'nobox'], { env: { ...env(api.url), PATH: bin }, homeDir: home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no container named nobox');
  });

  it('logs -f writes the log frames as they come and ends with the stream (exit 0)', async () => {
    api = await fakeApi({ 'GET /api/containers': { body: { items: [box], total: 1 } } });
    const wss = new WebSocketServer({ server: api.server });
    const seen: { url?: string; key?: string } = {};
    wss.on('connection', (ws, req) => {
      seen.url = req.url;
      seen.key = req.headers['x-api-key'] as string;
      ws.send('line one\n');
      ws.send('line two\n', () => ws.close(1000, 'end of log'));
    });
    try {
      const out = await invoke(['logs', '-f', '训练机', '--tail', '5'], { env: env(api.url), homeDir: home });
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      expect(out.stdout).toBe('line one\nline two\n');
      expect(seen).toEqual({ url: '/api/containers/ws/c-abc123/logs?tail=5', key: 'sk-test' });
    } finally {
      for (const c of wss.clients) c.terminate();
      wss.close();
    }
  });
});

describe('gpucloud at a terminal', () => {
  it('rm asks first: no deletes nothing, y deletes', async () => {
    api = await fakeApi({
      'GET /api/containers': { body: { items: [box], total: 1 } },
      'DELETE /api/containers/c-abc123': { body: { ok: true } },
    });
    const no = await invoke(['rm', '训练机'], {
      env: env(api.url),
      homeDir: home,
      stdin: 'n\n',
      stdinIsTTY: true,
    });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain(
      'Delete 训练机 (c-abc123)? Its files are lost, this cannot be undone. [y/N] ',
    );
    expect(no.stderr).toContain('error: cancelled');
    expect(api.requests.some((r) => r.method === 'DELETE')).toBe(false);

    const yes = await invoke(['rm', '训练机'], {
      env: env(api.url),
      homeDir: home,
      stdin: 'y\n',
      stdinIsTTY: true,
    });
    expect(yes.code).toBe(0);
    expect(yes.stdout).toBe('Deleted 训练机\n');
    expect(api.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/containers/c-abc123',
    ]);
  });

  it('login asks for the key without echo (raw mode, back to normal after)', async () => {
    api = await fakeApi({ 'GET /api/mcp/whoami': { body: { id: 1, username: 'bob', via: 'api_key' } } });
    const out = await invoke(['login', '--url', api.url], {
      env: { XDG_CONFIG_HOME: path.join(home, 'cfg') },
      homeDir: home,
      stdin: 'sk-typedx\u007f\r',
      stdinIsTTY: true,
    });
    expect(out.code).toBe(0);
    expect(out.rawModes).toEqual([true, false]);
    expect(out.stderr).toBe('API key: \n');
    expect(out.stdout).not.toContain('sk-typed');
    expect(api.requests[0]?.headers['x-api-key']).toBe('sk-typed'); // the x was erased
  });
});

describe('following progress', () => {
  it('create --wait follows the status watch through the pull to running, with plain progress lines off a terminal', async () => {
    const statuses = [
      { status: 'pulling', pull_progress: 0 },
      { status: 'pulling', pull_progress: 55 },
      { status: 'starting', pull_progress: null },
      { status: 'running', pull_progress: null },
    ];
    api = await fakeApi({
      'GET /api/cloud-products/3': { body: { id: 3, name: 'local', gpu_type: 'RTX4090', price: 2 } },
      'GET /api/frameworks': { body: [{ id: 2, name: 'Base', ports: {} }] },
      'GET /api/frameworks/2/versions': { body: [{ id: 21, version: 'busybox', ports: { ssh: 22 } }] },
      'POST /api/cloud-products/3/purchase': {
        status: 201,
        body: { container_id: 'c-abc123', status: 'creating' },
      },
      'GET /api/containers/c-abc123/status': () => ({ body: statuses.shift() }),
      'GET /api/containers/c-abc123': { body: box },
    });
    const out = await invoke(
      ['create', '--product', '3', '--framework', 'Base', '--name', '训练机', '--yes', '--wait'],
      {
        env: env(api.url),
        homeDir: home,
      },
    );
    expect(out.code).toBe(0);
    expect(out.stderr).toBe('pulling image 0%\npulling image 55%\nstarting\n');
    expect(out.stdout).toBe(
      'Created 训练机 (c-abc123)\nSSH: ssh -p 24801 root@127.0.0.1   (or: gpucloud ssh 训练机)\n',
    );
    // Each watch names what the CLI last saw, so the server answers at the next change.
    const watches = api.requests.filter((r) => r.path.endsWith('/status')).map((r) => r.query.toString());
    expect(watches).toEqual([
      'while=creating&wait=30',
      'while=pulling&progress=0&wait=30',
      'while=pulling&progress=55&wait=30',
      'while=starting&wait=30',
    ]);
  });

  it('create --wait exits 1 with the reason when the container fails to start', async () => {
    api = await fakeApi({
      'GET /api/cloud-products/3': { body: { id: 3, name: 'local', gpu_type: 'RTX4090', price: 2 } },
      'GET /api/frameworks': { body: [{ id: 2, name: 'Base', ports: {} }] },
      'GET /api/frameworks/2/versions': { body: [{ id: 21, version: 'busybox', ports: { ssh: 22 } }] },
      'POST /api/cloud-products/3/purchase': {
        status: 201,
        body: { container_id: 'c-abc123', status: 'creating' },
      },
      'GET /api/containers/c-abc123/status': { body: { status: 'failed', pull_progress: null } },
      'GET /api/containers/c-abc123': {
        body: { ...box, status: 'failed', start_error: '镜像拉取失败，费用已退回' },
      },
    });
    const out = await invoke(['create', '--product', '3', '--framework', 'Base', '--yes', '--wait'], {
      env: env(api.url, { LANG: 'zh_CN.UTF-8' }),
      homeDir: home,
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('训练机 未能启动 (失败): 镜像拉取失败，费用已退回');
  });

  it('save follows the image’s progress until it is ready', async () => {
    const images = [
      { status: 'saving', progress: 10 },
      { status: 'saving', progress: 70 },
      { status: 'ready', progress: 100 },
    ];
    api = await fakeApi({
      'GET /api/containers': { body: { items: [box], total: 1 } },
      'POST /api/containers/c-abc123/save-image': { status: 202, body: { image_id: 9 } },
      'GET /api/images/9': () => ({
        body: {
          id: 9,
          name: 'mine',
          tag: 'v1',
          size_bytes: 3 * 1024 * 1024,
          contents: null,
          ...images.shift(),
        },
      }),
    });
    const out = await invoke(['save', '训练机', '--image-name', 'mine', '--tag', 'v1'], {
      env: env(api.url),
      homeDir: home,
    });
    expect(out.code).toBe(0);
    expect(out.stderr).toBe('saving image 10%\nsaving image 70%\n');
    expect(out.stdout).toBe('Saved mine:v1 (3.0 MB)\n');
    expect(api.requests.find((r) => r.method === 'POST')?.body).toEqual({ name: 'mine', tag: 'v1' });
  });
});
