import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { privateEngine } from '../../scripts/lib/docker-engine.mjs';
import { freeLoopbackPort } from '../../scripts/lib/free-port.mjs';
import { recordedPid } from '../../scripts/lib/leftovers.mjs';
import { WEB_DIST } from './platform.js';
import { answers, descendants, living, type Proc, processes, waitFor } from './processes.js';

// `node scripts/start.mjs` with a Docker engine of its own: GPUCLOUD_DOCKER=private makes it
// start a private dockerd in its data folder (GPUCLOUD_DATA_DIR) even where the test engine or a
// system one answers. A SIGKILL of the script takes its agent and control plane with it, and the
// next start stops the PostgreSQL and dockerd it left; a Ctrl+C to its process group then leaves
// no dockerd, containerd or shim of that folder, nor its socket, bridge or firewall rules.
// Needs root and Docker's dockerd (CI: Debian's docker.io, no system dockerd running).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Never skipped: a machine that cannot run it fails with what it lacks (the test engine needs the
// same, so npm test has it).
const missing =
  process.platform !== 'linux' || process.getuid?.() !== 0
    ? 'root on Linux'
    : spawnSync('sh', ['-c', 'command -v dockerd && command -v docker'], { stdio: 'ignore' }).status !== 0
      ? 'dockerd and docker (Debian: apt-get install docker.io)'
      : '';

let dataDir = '';
let engine: ReturnType<typeof privateEngine>;
let env: NodeJS.ProcessEnv;
let start: ChildProcess | undefined;
let output = '';
let port = 0;

const until = <T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs: number) =>
  waitFor(what, check, timeoutMs, () => output);
const healthy = () => answers(port);

/** npm start, in a process group of its own as a terminal's foreground job; resolves once up. */
async function launch(): Promise<ChildProcess> {
  output = '';
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, detached: true });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  start = child;
  await until('the platform to start', () => (output.includes('平台已启动') ? true : undefined), 150_000);
  return child;
}

/** Every process of this data folder: PostgreSQL, dockerd, its containerd and shims, the agent. */
function ofDataDir(): Proc[] {
  return processes().filter(
    (p) => p.state !== 'Z' && (p.cmdline.includes(`${dataDir}/`) || p.cmdline.includes(engine.execRoot)),
  );
}

function docker(...args: string[]) {
  return spawnSync('docker', args, {
    encoding: 'utf8',
    env: { ...process.env, DOCKER_HOST: `unix://${engine.socketPath}` },
  });
}

/** The firewall rules that name the private bridge. */
function bridgeRules(): string[] {
  const rules: string[] = [];
  for (const table of ['filter', 'nat']) {
    const r = spawnSync('iptables', ['-t', table, '-S'], { encoding: 'utf8' });
    rules.push(...r.stdout.split('\n').filter((l) => l.split(/\s+/).includes(engine.bridge)));
  }
  return rules;
}

describe('npm start with a private dockerd (GPUCLOUD_DOCKER=private)', () => {
  if (missing) throw new Error(`this suite needs ${missing}`);
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-private-'));
    engine = privateEngine(dataDir);
    port = await freeLoopbackPort();
    env = {
      ...process.env,
      GPUCLOUD_DATA_DIR: dataDir,
      GPUCLOUD_DOCKER: 'private',
      // Beside the test engine the other suites use at the same time: its iptables set-up would
      // flush that engine's NAT rules (docker-engine.mjs).
      GPUCLOUD_DOCKERD_IPTABLES: 'off',
      PORT: String(port),
      AGENT_PORT: String(await freeLoopbackPort()),
      AGENT_TOOLBOX_DIR: inject('toolboxDir'),
      WEB_DIST,
      AGENT_NODE_NAME: `test-private-${randomBytes(3).toString('hex')}`,
      AGENT_BIND_ADDRESS: '127.0.0.1',
    };
    delete env.DATABASE_URL; // its own embedded PostgreSQL
    delete env.DOCKER_HOST; // and no engine named: GPUCLOUD_DOCKER=private alone decides
    await launch();
  }, 200_000);

  afterAll(async () => {
    if (!dataDir) return;
    if (start?.pid && start.exitCode === null && start.signalCode === null) {
      try {
        process.kill(-start.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    // What a failed test left: dockerd stops its containers and containerd, PostgreSQL shuts down.
    for (const p of ofDataDir()) {
      const signal = /\bdockerd\b/.test(p.cmdline)
        ? 'SIGTERM'
        : /postgres/.test(p.cmdline)
          ? 'SIGINT'
          : 'SIGKILL';
      try {
        process.kill(p.pid, signal);
      } catch {
        // gone
      }
    }
    await until('the leftovers to stop', () => (ofDataDir().length === 0 ? true : undefined), 60_000).catch(
      () => {
        for (const p of ofDataDir()) process.kill(p.pid, 'SIGKILL');
      },
    );
    spawnSync('ip', ['link', 'delete', engine.bridge], { stdio: 'ignore' });
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(engine.execRoot, { recursive: true, force: true });
  }, 120_000);

  it('starts a dockerd of its own in its data folder, and the platform answers', async () => {
    expect(output).toContain('启动私有 Docker 引擎');
    expect(output).toContain(`Docker 引擎: unix://${engine.socketPath}`);
    expect(await healthy()).toBe(true);
    const dockerd = descendants(start?.pid ?? 0).find(
      (p) => /\bdockerd\b/.test(p.cmdline) && p.cmdline.includes(engine.dataRoot),
    );
    expect(dockerd).toBeDefined();
    expect(recordedPid(dataDir, 'dockerd')).toBe(dockerd?.pid);
    expect(recordedPid(dataDir, 'start')).toBe(start?.pid);
    // A container with a restart policy: it comes back with each new engine, and its shim is one
    // more process that Ctrl+C must leave behind.
    // No gpucloud label: the agent leaves it alone.
    const run = docker(
      'run',
      '-d',
      '--restart',
      'always',
      '--stop-timeout',
      '1',
      'gpucloud/base:local',
      'sleep',
      '1000',
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('a SIGKILL of npm start takes its agent and control plane along; the next start stops the PostgreSQL and dockerd it left and starts afresh', async () => {
    const killed = start as ChildProcess;
    const before = descendants(killed.pid ?? 0);
    const find = (re: RegExp) => before.find((p) => re.test(p.cmdline));
    const agent = find(/node-agent\/src\/main\.ts/);
    const controlPlane = find(/control-plane\/src\/main\.ts/);
    const postgres = before.find((p) => p.cmdline.includes(`${dataDir}/postgres`));
    const dockerd = find(/\bdockerd\b/);
    for (const p of [agent, controlPlane, postgres, dockerd]) expect(p).toBeDefined();

    const exited = new Promise((resolve) => killed.once('exit', resolve));
    process.kill(killed.pid ?? 0, 'SIGKILL');
    await exited;
    const killedAt = Date.now();
    await until(
      'the agent and the control plane to exit',
      () => (living([agent?.pid ?? 0, controlPlane?.pid ?? 0]).length === 0 ? true : undefined),
      10_000,
    );
    console.log(`agent and control plane gone ${Date.now() - killedAt} ms after the SIGKILL`);
    // PostgreSQL and dockerd cannot watch their parent: left for the next start.
    expect(living([postgres?.pid ?? 0, dockerd?.pid ?? 0]).map((p) => p.pid)).toHaveLength(2);

    await launch();
    expect(output).toContain(`遗留的 PostgreSQL (pid ${postgres?.pid})`);
    expect(output).toContain(`遗留的 私有 Docker 引擎 (dockerd) (pid ${dockerd?.pid})`);
    expect(output).not.toContain('内未退出');
    expect(output).toContain('启动私有 Docker 引擎');
    expect(living([postgres?.pid ?? 0, dockerd?.pid ?? 0])).toEqual([]);
    expect(await healthy()).toBe(true);
  });

  it('a SIGINT to its process group (Ctrl+C) stops the private dockerd, its containerd and shims, and removes its socket and bridge', async () => {
    const pid = start?.pid ?? 0;
    // The container came back with the new engine: its shim runs.
    await until(
      'the container to run again',
      () => (ofDataDir().some((p) => p.cmdline.includes('containerd-shim')) ? true : undefined),
      30_000,
    );
    const names = ofDataDir().map((p) => p.cmdline);
    expect(names.some((c) => /\bdockerd\b/.test(c))).toBe(true);
    expect(names.some((c) => /\bcontainerd --config/.test(c))).toBe(true);

    const exited = new Promise<number | null>((resolve) => start?.once('exit', (code) => resolve(code)));
    process.kill(-pid, 'SIGINT');
    const code = await Promise.race([exited, sleep(90_000).then(() => 'still running')]);
    expect(code).toBe(0);
    expect(output).toContain('停止私有 Docker 引擎');
    expect(output).toContain('平台已停止');
    expect(ofDataDir()).toEqual([]);
    expect(existsSync(engine.socketPath)).toBe(false);
    expect(spawnSync('ip', ['link', 'show', engine.bridge], { stdio: 'ignore' }).status).not.toBe(0);
    expect(bridgeRules()).toEqual([]);
    for (const name of ['start', 'postgres', 'dockerd']) expect(recordedPid(dataDir, name)).toBeUndefined();
  });
});
