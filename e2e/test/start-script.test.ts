import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freeLoopbackPort } from '../../scripts/lib/free-port.mjs';
import { ensurePostgres } from '../../scripts/lib/postgres.mjs';
import { WEB_DIST } from './platform.js';
import { answers, descendants, living, processes, waitFor } from './processes.js';

// The whole `node scripts/start.mjs`, in a data folder of its own (GPUCLOUD_DATA_DIR), on the
// test engine (DOCKER_HOST: no private dockerd) and on free ports: a killed agent comes back, a
// SIGKILL of the script takes the agent and the control plane along (the next start stops the
// PostgreSQL it left), and a Ctrl+C to its process group, as a terminal sends it, leaves none of
// its processes. start-private-docker.test.ts does the same with a private dockerd.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let dataDir: string;
let start: ChildProcess | undefined;
let output = '';
let port = 0;
let agentPort = 0;
let env: NodeJS.ProcessEnv;

const until = <T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs: number) =>
  waitFor(what, check, timeoutMs, () => output);
const healthy = () => answers(port);

/** npm start, in a process group of its own as a terminal's foreground job; resolves once up. */
async function launch() {
  output = '';
  start = spawn(process.execPath, ['scripts/start.mjs'], { cwd: ROOT, env, detached: true });
  start.stdout?.on('data', (d) => {
    output += d;
  });
  start.stderr?.on('data', (d) => {
    output += d;
  });
  await until('the platform to start', () => (output.includes('平台已启动') ? true : undefined), 150_000);
}

function agentPid(): number | undefined {
  if (!start?.pid) return undefined;
  return descendants(start.pid).find((p) => p.cmdline.includes('node-agent/src/main.ts'))?.pid;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-start-'));
  // A data folder from before the upgrade: secrets without a database password, and a cluster
  // made with the old fixed password.
  const secrets = {
    secretKey: randomBytes(32).toString('hex'),
    adminPassword: 'admin-pw-1',
    agentToken: 'tok',
  };
  writeFileSync(path.join(dataDir, 'secrets.json'), JSON.stringify(secrets));
  const old = await ensurePostgres({
    dataDir,
    name: 'postgres',
    port: 55473,
    database: 'gpucloud',
    log: () => {},
  });
  await old.stop();

  port = await freeLoopbackPort();
  agentPort = await freeLoopbackPort();
  env = {
    ...process.env,
    GPUCLOUD_DATA_DIR: dataDir,
    PORT: String(port),
    AGENT_PORT: String(agentPort),
    DOCKER_HOST: inject('dockerHost'),
    AGENT_TOOLBOX_DIR: inject('toolboxDir'),
    WEB_DIST,
    // A test- node name: the test engine's clean-up knows what it may remove.
    AGENT_NODE_NAME: `test-start-${randomBytes(3).toString('hex')}`,
    AGENT_BIND_ADDRESS: '127.0.0.1',
  };
  delete env.DATABASE_URL; // npm test's: this run starts its own embedded PostgreSQL
  await launch();
}, 200_000);

afterAll(async () => {
  if (start?.pid && start.exitCode === null) {
    const left = descendants(start.pid);
    try {
      process.kill(-start.pid, 'SIGKILL');
    } catch {
      // gone
    }
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  // What a killed run left if a test failed before the next start: PostgreSQL.
  for (const p of processes().filter((p) => p.cmdline.includes(`${dataDir}/`) && p.state !== 'Z')) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (scripts/start.mjs)', () => {
  it('runs PostgreSQL crash-safe with the generated password, made a backup, and answers', async () => {
    expect(await healthy()).toBe(true);
    const secrets = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
    expect(secrets.databasePassword).toMatch(/^[\w-]{32}$/);
    const pgPort = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3];
    const client = new pg.Client({
      host: '127.0.0.1',
      port: Number(pgPort),
      user: 'gpucloud',
      password: secrets.databasePassword,
      database: 'gpucloud',
    });
    await client.connect();
    expect((await client.query('SHOW fsync')).rows[0].fsync).toBe('on');
    expect((await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('on');
    await client.end();
    const withOld = new pg.Client({
      host: '127.0.0.1',
      port: Number(pgPort),
      user: 'gpucloud',
      password: 'gpucloud',
    });
    await expect(withOld.connect()).rejects.toMatchObject({ code: '28P01' });

    await until(
      'the first backup',
      () =>
        readdirSync(path.join(dataDir, 'backups')).some((f) => f.endsWith('.tar.gz')) ? true : undefined,
      30_000,
    ).catch(() => {
      throw new Error(`no backup in ${dataDir}/backups; npm start said:\n${output.slice(-3000)}`);
    });
  });

  it('when its agent is killed with SIGKILL, restarts it and the platform answers again', async () => {
    const first = await until('the agent', agentPid, 10_000);
    process.kill(first, 'SIGKILL');
    await until(
      'the restart notice',
      () => (output.includes('node-agent 意外退出 (SIGKILL)，1 秒后重启') ? true : undefined),
      10_000,
    );
    const second = await until(
      'the new agent',
      () => {
        const pid = agentPid();
        return pid !== undefined && pid !== first ? pid : undefined;
      },
      15_000,
    );
    expect(second).not.toBe(first);
    // The new agent listens again, and the control plane answers.
    await until(
      'the agent to listen',
      () =>
        new Promise<true | undefined>((resolve) => {
          const socket = net.connect(agentPort, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(true);
          });
          socket.once('error', () => resolve(undefined));
        }),
      60_000,
    );
    expect(await healthy()).toBe(true);
    expect(output).not.toContain('平台停止');
  });

  it('a SIGKILL of npm start takes its agent and control plane along, and the next start stops the PostgreSQL it left', async () => {
    const killed = start as ChildProcess;
    const before = descendants(killed.pid ?? 0);
    const agent = before.find((p) => p.cmdline.includes('node-agent/src/main.ts'));
    const controlPlane = before.find((p) => p.cmdline.includes('control-plane/src/main.ts'));
    const postgres = before.find((p) => p.cmdline.includes(`${dataDir}/postgres`));
    for (const p of [agent, controlPlane, postgres]) expect(p).toBeDefined();

    const exited = new Promise((resolve) => killed.once('exit', resolve));
    process.kill(killed.pid ?? 0, 'SIGKILL');
    await exited;
    await until(
      'the agent and the control plane to exit',
      () => (living([agent?.pid ?? 0, controlPlane?.pid ?? 0]).length === 0 ? true : undefined),
      10_000,
    );
    expect(living([postgres?.pid ?? 0])).toHaveLength(1); // it cannot watch its parent

    await launch();
    expect(output).toContain(`遗留的 PostgreSQL (pid ${postgres?.pid})`);
    expect(output).not.toContain('内未退出');
    expect(living([postgres?.pid ?? 0])).toEqual([]);
    expect(await healthy()).toBe(true);
  });

  it('a SIGINT to its process group (Ctrl+C) stops everything it started and nothing restarts', async () => {
    const pid = start?.pid ?? 0;
    const started = descendants(pid);
    const names = started.map((p) => p.cmdline);
    expect(names.some((c) => c.includes('node-agent/src/main.ts'))).toBe(true);
    expect(names.some((c) => c.includes('control-plane/src/main.ts'))).toBe(true);
    expect(names.some((c) => c.includes(`${dataDir}/postgres`))).toBe(true);

    const exited = new Promise<number | null>((resolve) => start?.once('exit', (code) => resolve(code)));
    process.kill(-pid, 'SIGINT');
    const code = await Promise.race([exited, sleep(60_000).then(() => 'still running')]);
    expect(code).toBe(0);
    expect(output).toContain('平台已停止');
    expect(output).not.toContain('意外退出 (SIGTERM)');
    expect(output).not.toContain('意外退出 (SIGINT)');
    // The agent heard of it from npm start (SIGTERM, in order), not from the terminal's SIGINT.
    expect(output).toContain('SIGTERM received, shutting down');
    expect(output).not.toContain('SIGINT received');
    expect(living([pid, ...started.map((p) => p.pid)])).toEqual([]);
    expect(processes().filter((p) => p.cmdline.includes(dataDir) && p.state !== 'Z')).toEqual([]);
  });
});
