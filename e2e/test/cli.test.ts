import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Balance, CloudProduct, Container, UserImageList } from '@gpucloud/control-plane/api';
import type { ApiClient } from '@gpucloud/control-plane/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, registerUser } from './console-helpers.js';
import { type Platform, startPlatform } from './platform.js';

// The `gpucloud` command line end to end: the built bin, run with plain node as a child process
// (never imported), against the whole platform (a real agent on the test Docker engine, the
// embedded registry for 保存镜像). A user with an API key logs in, lists the market, buys a Base
// container and waits for it, reaches it with the real ssh and scp clients (password through
// sshpass, then their own key), reads and follows its log, saves it as an image, stops, starts
// and deletes it; a wrong key and another user's container are refused with the API's words.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'cli', 'bin', 'gpucloud.js');
const CJK = /[\u4e00-\u9fff]/;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let platform: Platform;
let owner: ApiClient;
let ownerKey: string;
let otherKey: string;
let product: CloudProduct;
/** HOME of the CLI's runs: its config, the files scp copies, an SSH key. */
let home: string;
let containerId: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI's environment: a HOME of its own, no SSH agent, English unless a test says otherwise. */
function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    LANG: 'C.UTF-8',
    ...extra,
  };
}

function startCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: home,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `gpucloud args…` to its end (stdin is /dev/null: no terminal, no prompt). */
function gpucloud(args: string[], env: Record<string, string> = {}, timeoutMs = 150_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = startCli(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gpucloud ${args.join(' ')} ran over ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A run that must succeed; its output in the failure message otherwise. */
async function ok(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await gpucloud(args, env);
  expect(run.code, `gpucloud ${args.join(' ')}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);
  return run;
}

async function newApiKey(api: ApiClient, name: string): Promise<string> {
  const created = await api.request<{ key: string }>('POST', '/api/api-keys', { name });
  expect(created.status).toBe(201);
  return created.body.key;
}

beforeAll(async () => {
  // The bin runs the bundle: made from the sources under test (esbuild, well under a second).
  execFileSync(process.execPath, [path.join(ROOT, 'cli', 'build.mjs')], { stdio: 'inherit' });
  home = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-cli-e2e-'));
  platform = await startPlatform({ console: false, registry: true });
  owner = await registerUser(platform, 'cli_owner');
  const other = await registerUser(platform, 'cli_other');
  const me = await owner.request<{ id: number }>('GET', '/api/mcp/whoami');
  const admin = await adminClient(platform);
  const funded = await admin.request('POST', `/api/admin/users/${me.body.id}/balance`, {
    amount: 100,
    reason: 'CLI 测试',
  });
  expect(funded.status).toBe(200);
  ownerKey = await newApiKey(owner, 'cli');
  otherKey = await newApiKey(other, 'cli-other');
  const products = await owner.request<{ items: CloudProduct[] }>('GET', '/api/cloud-products');
  product = products.body.items[0] as CloudProduct;
  expect(product).toBeDefined();
});

afterAll(async () => {
  await platform?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('the gpucloud command line', () => {
  it('login with a wrong key exits 1 with the API’s Chinese detail and saves nothing', async () => {
    const refused = await fetch(`${platform.url}/api/mcp/whoami`, { headers: { 'X-API-Key': 'sk-wrong' } });
    const { detail, code } = (await refused.json()) as { detail: string; code: string };
    expect(detail).toMatch(CJK);

    const run = await gpucloud(['login', '--url', platform.url, '--api-key', 'sk-wrong']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(detail);
    expect(run.stderr).toContain(code);
    expect(() => statSync(path.join(home, '.config', 'gpucloud', 'config.json'))).toThrow();

    // A command with a wrong key in the environment: the same refusal, as JSON for a script.
    const listed = await gpucloud(['ls', '--json'], {
      GPUCLOUD_URL: platform.url,
      GPUCLOUD_API_KEY: 'sk-wrong',
    });
    expect(listed.code).toBe(1);
    expect(JSON.parse(listed.stderr)).toEqual({ error: { detail, code, status: 401 } });
  });

  it('login saves the URL and key (0600 in a 0700 folder); products and images list the market', async () => {
    const login = await ok(['login', '--url', platform.url, '--api-key', ownerKey]);
    expect(login.stdout).toContain('as cli_owner');
    const file = path.join(home, '.config', 'gpucloud', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: platform.url, api_key: ownerKey });

    const products = await ok(['products', '--json']);
    const listed = JSON.parse(products.stdout) as CloudProduct[];
    expect(listed.map((p) => p.id)).toContain(product.id);
    const table = await ok(['products', '--gpus', '1']);
    expect(table.stdout).toMatch(new RegExp(`^${product.id}\\s+${escapeRegExp(product.name)}\\s+`, 'm'));

    const images = await ok(['images', '--public']);
    expect(images.stdout).toMatch(/^Base\s+busybox-sshd/m);
  });

  it('create --wait buys a Base container and returns once it runs; ls --json shows it', async () => {
    const created = await ok([
      'create',
      '--product',
      String(product.id),
      '--framework',
      'Base',
      '--name',
      'cli-box',
      '--yes',
      '--wait',
    ]);
    expect(created.stdout).toMatch(/^Created cli-box \(c-[a-z0-9]+\)$/m);
    expect(created.stdout).toMatch(/^SSH: ssh -p \d+ root@127\.0\.0\.1/m);

    const ls = await ok(['ls', '--json']);
    const items = JSON.parse(ls.stdout) as Container[];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: 'cli-box', status: 'running', gpu_count: 1 });
    containerId = items[0]?.container_id as string;

    const zh = await ok(['ls'], { LANG: 'zh_CN.UTF-8' });
    expect(zh.stdout).toMatch(new RegExp(`^${containerId}\\s+cli-box\\s+运行中\\s+`, 'm'));
  });

  it('ssh runs a command in the container as root, with the password through sshpass', async () => {
    const run = await ok(['ssh', 'cli-box', '-v', '--', 'echo', 'hello', '&&', 'id', '-u']);
    expect(run.stdout).toBe('hello\n0\n');
    // No key of the user's: straight to the password, given to ssh by sshpass.
    expect(run.stderr).toMatch(/^\+ \S*sshpass -e \S*ssh -o PubkeyAuthentication=no -p \d+ /m);
    // The remote command's exit status is the CLI's.
    expect((await gpucloud(['ssh', containerId, '--', 'exit', '3'])).code).toBe(3);
  });

  it('scp copies a file into the container and back', async () => {
    const content = `weights ${randomBytes(8).toString('hex')}\n`;
    writeFileSync(path.join(home, 'in.txt'), content);
    await ok(['scp', './in.txt', 'cli-box:/root/in.txt']);
    expect((await ok(['ssh', 'cli-box', '--', 'cat', '/root/in.txt'])).stdout).toBe(content);
    mkdirSync(path.join(home, 'back'));
    await ok(['scp', 'cli-box:/root/in.txt', './back/']);
    expect(readFileSync(path.join(home, 'back', 'in.txt'), 'utf8')).toBe(content);
  });

  it('logs -f receives a line echoed into the container’s output; logs prints it after', async () => {
    const marker = `cli-follow-${randomBytes(4).toString('hex')}`;
    const follower = startCli(['logs', '-f', 'cli-box', '--tail', '1']);
    let followed = '';
    follower.stdout?.on('data', (d: Buffer) => {
      followed += d.toString();
    });
    let followerErr = '';
    follower.stderr?.on('data', (d: Buffer) => {
      followerErr += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => follower.on('close', (code) => resolve(code)));
    try {
      // The last line of the log arrives first: the stream is open.
      await expect.poll(() => followed.length, { timeout: 30_000 }).toBeGreaterThan(0);
      await ok(['ssh', 'cli-box', '--', `echo ${marker} > /proc/1/fd/1`]);
      await expect.poll(() => followed, { timeout: 30_000 }).toContain(marker);
    } finally {
      follower.kill('SIGINT');
    }
    expect(await exited, followerErr).toBe(0);

    const logs = await ok(['logs', 'cli-box', '--tail', '50']);
    expect(logs.stdout).toContain(marker);
    const json = JSON.parse((await ok(['logs', containerId, '--json'])).stdout) as { logs: string };
    expect(json.logs).toContain(marker);
  });

  it('save makes an image of the container and follows the save until it is ready', async () => {
    const run = await ok(['save', 'cli-box', '--image-name', 'cli-saved', '--tag', 'v1']);
    expect(run.stdout).toMatch(/^Saved cli-saved:v1 \(.+\)$/m);
    const mine = JSON.parse((await ok(['images', '--mine', '--json'])).stdout) as { mine: UserImageList };
    expect(mine.mine.images).toEqual([
      expect.objectContaining({ name: 'cli-saved', tag: 'v1', status: 'ready' }),
    ]);
  });

  it('another user’s container is refused with the API’s Chinese detail (exit 1)', async () => {
    const theirs = { GPUCLOUD_API_KEY: otherKey }; // overrides the saved login's key
    expect(JSON.parse((await ok(['ls', '--json'], theirs)).stdout)).toEqual([]);
    const asked = await owner.request<{ detail: string }>('GET', '/api/containers/c-000000');
    expect(asked.body.detail).toMatch(CJK);
    for (const args of [
      ['stop', containerId],
      ['logs', containerId],
      ['ssh', containerId, '--', 'true'],
      ['rm', containerId, '--yes'],
    ]) {
      const run = await gpucloud(args, theirs);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toContain(asked.body.detail);
    }
    // By name it is simply not among theirs: the CLI's own words, in Chinese when asked.
    const byName = await gpucloud(['stop', 'cli-box'], { ...theirs, LANG: 'zh_CN.UTF-8' });
    expect(byName.code).toBe(1);
    expect(byName.stderr).toContain('没有名为 cli-box 的容器');
    const mine = await owner.request<Container>('GET', `/api/containers/${containerId}`);
    expect(mine.body.status).toBe('running');
  });

  it('stop and start; after a start the user’s own key (their profile’s) gets in without a password', async () => {
    const stopped = await ok(['stop', 'cli-box', '--json']);
    expect(JSON.parse(stopped.stdout)).toEqual([
      expect.objectContaining({ name: 'cli-box', status: 'stopped' }),
    ]);
    const notRunning = await gpucloud(['ssh', 'cli-box', '--', 'true']);
    expect(notRunning.code).toBe(1);
    expect(notRunning.stderr).toContain('cli-box is not running (stopped)');

    const key = path.join(home, 'id_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'cli-e2e', '-f', key]);
    const profile = await owner.request('PUT', '/api/user/ssh-key', {
      ssh_key: readFileSync(`${key}.pub`, 'utf8').trim(),
    });
    expect(profile.status).toBe(200);

    const started = await ok(['start', 'cli-box']);
    expect(started.stdout).toBe('Started cli-box\n');
    const run = await ok(['ssh', 'cli-box', '-i', key, '-v', '--', 'echo', 'key-works']);
    expect(run.stdout).toBe('key-works\n');
    // The quiet probe with the key only, then ssh itself: no sshpass, no password.
    expect(run.stderr).toContain('PreferredAuthentications=publickey');
    expect(run.stderr).not.toContain('sshpass');
  });

  it('rm asks for --yes off a terminal, then deletes; balance is the account’s', async () => {
    const unconfirmed = await gpucloud(['rm', 'cli-box']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    const removed = await ok(['rm', 'cli-box', '--yes']);
    expect(removed.stdout).toBe('Deleted cli-box\n');
    expect(JSON.parse((await ok(['ls', '--json'])).stdout)).toEqual([]);
    const gone = await owner.request<{ status: string }>('GET', `/api/containers/${containerId}`);
    expect(gone.status).toBe(404);

    const balance = JSON.parse((await ok(['balance', '--json'])).stdout) as Balance;
    const served = await owner.request<Balance>('GET', '/api/billing/balance');
    expect(balance).toEqual(served.body);
    // The 100 yuan the admin added, less what the container cost.
    expect(balance.balance).toBeGreaterThan(90);
    expect((await ok(['balance'])).stdout).toContain(`Balance: ¥${served.body.balance.toFixed(2)}`);
  });
});
