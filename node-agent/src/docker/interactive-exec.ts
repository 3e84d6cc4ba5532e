// A console session on a docker exec with a TTY. Docker does not end an exec when its client
// goes away (moby#9098), so the shell is started through a wrapper that records its pid, and a
// hang-up sends it SIGHUP like a closed terminal would: the shell exits and the kernel hangs up
// its foreground job. Works with a remote engine too, no host pid namespace needed.
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { TOOLBOX_MOUNT, TOOLBOX_SH } from '../containers/toolbox.js';
import type { InteractiveExec } from './container-client.js';

/** The exec command: `command`, after writing its pid where a hang-up finds it. */
export function consoleCommand(pidFile: string, command: string[]): string[] {
  return [TOOLBOX_SH, '-c', 'echo $$ > "$0" && exec "$@"', pidFile, ...command];
}

// A hang-up right after the open may run before the wrapper wrote its pid: wait for it a little.
// The toolbox's busybox applets: the image may have no `sleep`, `cat` or `rm`.
const BB = `${TOOLBOX_MOUNT}/bin/busybox`;
export const HANG_UP_SCRIPT =
  `i=0; while [ ! -s "$0" ] && [ $i -lt 20 ]; do ${BB} sleep 0.1; i=$((i+1)); done; ` +
  `pid=$(${BB} cat "$0" 2>/dev/null) && kill -HUP "$pid" 2>/dev/null; ${BB} rm -f "$0"`;
export const CLEAN_UP_SCRIPT = `${BB} rm -f "$0"`;

export const newPidFile = () => `/tmp/.gpucloud-console-${randomUUID()}.pid`;

export interface InteractiveExecParts {
  stream: Duplex;
  resize(cols: number, rows: number): Promise<void>;
  /** Reads the exit code once the process has ended. */
  readExitCode(): Promise<number>;
  /** Runs one of the scripts above (with the pid file as $0) in the container. */
  runScript(script: string): Promise<void>;
  log?: (line: string) => void;
}

export function interactiveExec(parts: InteractiveExecParts): InteractiveExec {
  const { stream } = parts;
  let closed = false;
  let hungUp = false;
  const ignore = (what: string) => (err: unknown) =>
    parts.log?.(`console ${what} failed: ${err instanceof Error ? err.message : String(err)}`);

  const ended = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', () => resolve()); // a broken connection ends the session like a hang-up
  });
  const exitCode = ended.then(async () => {
    const code = await parts.readExitCode();
    if (!hungUp) void parts.runScript(CLEAN_UP_SCRIPT).catch(ignore('clean-up'));
    return code;
  });
  const hangUp = () => {
    if (hungUp) return;
    hungUp = true;
    void parts.runScript(HANG_UP_SCRIPT).catch(ignore('hang-up'));
  };
  return {
    write: (data) => {
      if (!closed) stream.write(data);
    },
    resize: (cols, rows) => parts.resize(cols, rows),
    onData: (listener) => stream.on('data', listener),
    exitCode,
    hangUp,
    close: () => {
      if (closed) return;
      closed = true;
      hangUp();
      stream.destroy();
      exitCode.catch(ignore('exit code')); // nobody waits for it any more
    },
  };
}
