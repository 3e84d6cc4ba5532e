import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

// The machine's processes as /proc shows them, for the tests of `npm start` (what it started,
// what is left after it stopped or was killed).

export interface Proc {
  pid: number;
  ppid: number;
  state: string;
  cmdline: string;
}

export function processes(): Proc[] {
  const all: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      all.push({ pid: Number(entry), ppid: Number(ppid), state: state ?? '', cmdline });
    } catch {
      // it ended while we looked
    }
  }
  return all;
}

/** The living processes below `pid`, children of children included. */
export function descendants(pid: number): Proc[] {
  const all = processes().filter((p) => p.state !== 'Z');
  const found: Proc[] = [];
  let parents = new Set([pid]);
  while (parents.size > 0) {
    const next = all.filter((p) => parents.has(p.ppid));
    found.push(...next);
    parents = new Set(next.map((p) => p.pid));
  }
  return found;
}

/** Those of `pids` still running (zombies are not). */
export function living(pids: number[]): Proc[] {
  return processes().filter((p) => pids.includes(p.pid) && p.state !== 'Z');
}

/** Polls `check` until it gives a value; on timeout fails with the end of what npm start `said`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  said: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; npm start said:\n${said().slice(-3000)}`);
    await sleep(200);
  }
}

/** Whether the platform on `port` answers its health check. */
export async function answers(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
  } catch {
    return false;
  }
}
