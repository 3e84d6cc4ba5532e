// The control plane as a process (node src/main.ts, as npm start and systemd run it) stopped
// while it is still starting: its API answers before the registry it spawns is serving, and a
// SIGTERM then (npm start passing on a Ctrl+C) must still stop that registry, not orphan it.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freeLoopbackPort } from '../../scripts/lib/free-port.mjs';
import { DEFAULT_REGISTRY_BINARY } from '../src/registry-settings.js';
import { createTestDatabase } from './harness.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'gpucloud-main-signals-'));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the control plane process', () => {
  it('stopped with SIGTERM while still starting, it finishes starting, then stops the registry it spawned', async () => {
    if (!existsSync(DEFAULT_REGISTRY_BINARY))
      throw new Error(`${DEFAULT_REGISTRY_BINARY} is missing: apt-get install docker-registry`);
    // A registry that takes 5 s to come up (exec keeps the pid the control plane records).
    const slow = path.join(dir, 'slow-registry');
    writeFileSync(slow, `#!/bin/sh\nsleep 5\nexec ${DEFAULT_REGISTRY_BINARY} "$@"\n`);
    chmodSync(slow, 0o755);
    const port = await freeLoopbackPort();
    const output: string[] = [];
    child = spawn(process.execPath, ['--import', 'tsx', 'control-plane/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: await createTestDatabase(),
        SECRET_KEY: randomBytes(32).toString('hex'),
        HOST: '127.0.0.1',
        PORT: String(port),
        ADMIN_PASSWORD: 'Admin-pass-123',
        REGISTRY_BINARY: slow,
        REGISTRY_PORT: '0',
        REGISTRY_DATA_DIR: path.join(dir, 'registry'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));

    await until('the API', async () =>
      (await fetch(`http://127.0.0.1:${port}/api/health`)).ok ? true : undefined,
    );
    const pidFile = path.join(dir, 'registry', 'registry.pid');
    const registryPid = await until('the registry to be spawned', () =>
      existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) || undefined : undefined,
    );
    // Still starting: the registry is not serving yet, so the start has not returned.
    expect(output.join('')).not.toContain('listening on');
    child.kill('SIGTERM');
    expect(await exited, output.join('')).toBe(0);
    expect(alive(registryPid), output.join('')).toBe(false);
  }, 90_000);
});
