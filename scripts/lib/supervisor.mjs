// Keeps a child process running, as systemd's Restart=always does for the agent in production:
// a child that exits when nobody asked it to is started again after a delay that doubles with
// each quick failure (1 s, 2 s, 4 s … 30 s) and starts over once a run has lasted a minute.
import { spawn } from 'node:child_process';

/**
 * Starts `command` and restarts it whenever it exits before stop(). The child runs in a process
 * group of its own (a terminal's Ctrl+C reaches it only through stop(), in the caller's order).
 * With `exitWithParent`, the child gets an IPC channel and GPUCLOUD_EXIT_WITH_PARENT=1: a child
 * that honours it (the agent's and the control plane's main.ts) stops when the channel closes,
 * which it does when this process dies, even by SIGKILL; its own process group would otherwise
 * keep it running as an orphan.
 * Returns `{ name, pid, restarts, stop(timeoutMs) }`; `pid` is the current child's.
 */
export function supervise({
  name,
  command,
  args = [],
  spawnOptions = {},
  log = console.log,
  initialDelayMs = 1000,
  maxDelayMs = 30_000,
  resetAfterMs = 60_000,
  exitWithParent = false,
}) {
  let child;
  let startedAt = 0;
  let delayMs = 0;
  let timer;
  let stopping = false;
  const state = { name, pid: undefined, restarts: 0 };

  const start = () => {
    timer = undefined;
    startedAt = Date.now();
    child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit', ...(exitWithParent ? ['ipc'] : [])],
      ...spawnOptions,
      ...(exitWithParent
        ? { env: { ...(spawnOptions.env ?? process.env), GPUCLOUD_EXIT_WITH_PARENT: '1' } }
        : {}),
      detached: true,
    });
    child.channel?.unref(); // the channel never keeps this process alive
    state.pid = child.pid;
    child.once('error', (err) => log(`${name} 无法启动: ${err.message}`));
    child.once('exit', (code, signal) => {
      state.pid = undefined;
      if (stopping) return;
      // A run that lasted resetAfterMs was a good one: the next failure waits the shortest time.
      delayMs =
        Date.now() - startedAt >= resetAfterMs
          ? initialDelayMs
          : Math.min(maxDelayMs, delayMs * 2 || initialDelayMs);
      const why = signal ?? `退出码 ${code}`;
      log(`${name} 意外退出 (${why})，${delayMs / 1000} 秒后重启`);
      timer = setTimeout(() => {
        state.restarts++;
        start();
      }, delayMs);
    });
  };

  /**
   * Stops the child for good: SIGTERM to its group, SIGKILL after timeoutMs. A restart that was
   * waiting is cancelled.
   */
  state.stop = async (timeoutMs = 10_000) => {
    stopping = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signalGroup(child.pid, 'SIGTERM');
    const killer = setTimeout(() => {
      log(`${name} 在 ${timeoutMs / 1000} 秒内未退出，强制结束`);
      signalGroup(child.pid, 'SIGKILL');
    }, timeoutMs);
    await exited;
    clearTimeout(killer);
  };

  start();
  return state;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if (err.code !== 'ESRCH') throw err; // ESRCH: the group is gone already
  }
}
