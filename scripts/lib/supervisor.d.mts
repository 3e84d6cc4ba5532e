import type { SpawnOptions } from 'node:child_process';

export interface Supervised {
  name: string;
  /** The running child's process id; undefined between a crash and its restart. */
  pid: number | undefined;
  /** How many times the child was started again. */
  restarts: number;
  /** SIGTERM to the child's group, SIGKILL after timeoutMs; no restart afterwards. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Keeps `command` running: restarts after a delay doubling from initialDelayMs to maxDelayMs. */
export function supervise(options: {
  name: string;
  command: string;
  args?: string[];
  spawnOptions?: SpawnOptions;
  log?: (line: string) => void;
  initialDelayMs?: number;
  maxDelayMs?: number;
  resetAfterMs?: number;
  /** An IPC channel and GPUCLOUD_EXIT_WITH_PARENT=1: a child honouring it exits when this process dies. */
  exitWithParent?: boolean;
}): Supervised;
