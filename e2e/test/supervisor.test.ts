import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type Supervised, supervise } from '../../scripts/lib/supervisor.mjs';

// npm start's supervision of the agent and the control plane (scripts/lib/supervisor.mjs), on a
// real child process: what systemd's Restart=always does for the agent in production.

const started: Supervised[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) await s.stop(2000);
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function sleeper(lines: string[], options: { resetAfterMs?: number } = {}): Supervised {
  const s = supervise({
    name: 'sleeper',
    command: process.execPath,
    args: ['-e', 'setInterval(() => {}, 60_000)'],
    spawnOptions: { stdio: 'ignore' },
    log: (line) => lines.push(line),
    initialDelayMs: 300,
    maxDelayMs: 1200,
    resetAfterMs: options.resetAfterMs ?? 60_000,
  });
  started.push(s);
  return s;
}

/** SIGKILLs the current child; resolves with the new child's pid and how long it took to come. */
async function killAndAwaitRestart(s: Supervised): Promise<{ pid: number; afterMs: number }> {
  const old = await until('a running child', () => s.pid);
  const killedAt = Date.now();
  process.kill(old, 'SIGKILL');
  const pid = await until('the restart', () => (s.pid !== undefined && s.pid !== old ? s.pid : undefined));
  return { pid, afterMs: Date.now() - killedAt };
}

describe('the supervisor', () => {
  it('when its child is killed with SIGKILL, starts it again after a delay that doubles up to the cap', async () => {
    const lines: string[] = [];
    const s = sleeper(lines);
    const first = await until('the first child', () => s.pid);

    const one = await killAndAwaitRestart(s);
    expect(one.pid).not.toBe(first);
    expect(alive(first)).toBe(false);
    expect(alive(one.pid)).toBe(true);
    expect(one.afterMs).toBeGreaterThanOrEqual(280);
    const two = await killAndAwaitRestart(s);
    expect(two.afterMs).toBeGreaterThanOrEqual(580);
    const three = await killAndAwaitRestart(s);
    expect(three.afterMs).toBeGreaterThanOrEqual(1180);
    const four = await killAndAwaitRestart(s); // capped at maxDelayMs
    expect(four.afterMs).toBeGreaterThanOrEqual(1180);
    expect(four.afterMs).toBeLessThan(2300);

    expect(s.restarts).toBe(4);
    expect(lines).toEqual([
      'sleeper 意外退出 (SIGKILL)，0.3 秒后重启',
      'sleeper 意外退出 (SIGKILL)，0.6 秒后重启',
      'sleeper 意外退出 (SIGKILL)，1.2 秒后重启',
      'sleeper 意外退出 (SIGKILL)，1.2 秒后重启',
    ]);
  });

  it('after a run that lasted resetAfterMs, the next restart waits the shortest delay again', async () => {
    const lines: string[] = [];
    const s = sleeper(lines, { resetAfterMs: 1000 });
    await killAndAwaitRestart(s);
    await killAndAwaitRestart(s); // 0.6 s
    await sleep(1100); // a good run
    const after = await killAndAwaitRestart(s);
    expect(after.afterMs).toBeLessThan(580);
    expect(lines.at(-1)).toBe('sleeper 意外退出 (SIGKILL)，0.3 秒后重启');
  });

  it('stop() ends the child for good: no restart follows, even one that was waiting', async () => {
    const lines: string[] = [];
    const s = sleeper(lines);
    const pid = await until('the child', () => s.pid);
    await s.stop(2000);
    expect(alive(pid)).toBe(false);
    await sleep(800); // longer than the first restart delay
    expect(s.pid).toBeUndefined();
    expect(lines).toEqual([]);

    // A crash, then stop() while its restart waits: the restart never comes.
    const lines2: string[] = [];
    const s2 = sleeper(lines2);
    const pid2 = await until('the child', () => s2.pid);
    process.kill(pid2, 'SIGKILL');
    await until('the crash to be seen', () => (lines2.length > 0 ? true : undefined));
    await s2.stop(2000);
    await sleep(800);
    expect(s2.pid).toBeUndefined();
    expect(s2.restarts).toBe(0);
  });

  it('a child that ignores SIGTERM is killed after the timeout', async () => {
    const s = supervise({
      name: 'stubborn',
      command: process.execPath,
      args: ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 60_000)"],
      spawnOptions: { stdio: 'ignore' },
      log: () => {},
    });
    started.push(s);
    const pid = await until('the child', () => s.pid);
    await sleep(300); // its SIGTERM handler is in place
    const t0 = Date.now();
    await s.stop(1000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(alive(pid)).toBe(false);
  });
});
