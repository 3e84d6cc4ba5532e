// What a killed `npm start` leaves behind. Its agent and control plane exit with it (see
// supervisor.mjs, exitWithParent), but PostgreSQL and a private dockerd cannot watch their
// parent: their pids are kept in <dataDir>/run/<name>.pid while they run, and the next start
// stops what a run killed with SIGKILL (or a crash of node) left, then starts them afresh.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

function pidFile(dataDir, name) {
  return path.join(dataDir, 'run', `${name}.pid`);
}

/** Keeps `pid` as the running `name` of this data folder. */
export function recordPid(dataDir, name, pid) {
  mkdirSync(path.join(dataDir, 'run'), { recursive: true });
  writeFileSync(pidFile(dataDir, name), `${pid}\n`);
}

/** `name` was stopped cleanly: nothing to look for at the next start. */
export function forgetPid(dataDir, name) {
  rmSync(pidFile(dataDir, name), { force: true });
}

/** The pid recorded for `name`, or undefined. */
export function recordedPid(dataDir, name) {
  return readPid(pidFile(dataDir, name));
}

/** The first line of a pid file (ours, or a program's own such as postmaster.pid) as a pid. */
export function readPid(file) {
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]?.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The arguments of a living (not zombie) process, or undefined. */
export function processArgs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return undefined;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined; // no such process
  }
}

async function waitGone(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (processArgs(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

/**
 * Stops the leftover `label` of a killed run: the first of `pids` (recorded ones, a program's
 * own pid file) that is still alive and whose command line `matches` (a recycled pid is another
 * program) gets `signal`, then SIGKILL after `timeoutMs`. Returns the pid it stopped, or undefined.
 */
export async function stopLeftover({ label, pids, matches, signal, timeoutMs = 60_000, log }) {
  const pid = pids.find((p) => p !== undefined && p !== process.pid && matches(processArgs(p) ?? []));
  if (pid === undefined) return undefined;
  log(`发现上次运行 (被强制结束) 遗留的 ${label} (pid ${pid})，先停止它再重新启动`);
  try {
    process.kill(pid, signal);
  } catch {
    return pid; // gone meanwhile
  }
  if (await waitGone(pid, timeoutMs)) return pid;
  log(`遗留的 ${label} (pid ${pid}) ${timeoutMs / 1000} 秒内未退出，强制结束`);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
  await waitGone(pid, 10_000);
  return pid;
}
