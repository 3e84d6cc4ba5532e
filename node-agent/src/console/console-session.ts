// Console: a docker exec of a login shell with a TTY. The command of ConsoleOpen (when given)
// is an argv, never a shell string.
import type { ContainerService } from '../containers/container-service.js';
import { TOOLBOX_SH } from '../containers/toolbox.js';
import type { InteractiveExec } from '../docker/container-client.js';
import { failedPrecondition, invalidArgument } from '../errors.js';

/**
 * bash when the image has it, else its sh, else the toolbox's busybox sh; all as login shells
 * (profile, PATH, prompt). Started by the toolbox's sh: the image may have none.
 */
export const LOGIN_SHELL = [
  TOOLBOX_SH,
  '-c',
  `if [ -x /bin/bash ]; then exec /bin/bash -l; elif [ -x /bin/sh ]; then exec /bin/sh -l; else exec ${TOOLBOX_SH} -l; fi`,
];

/** Ctrl-C, sent for an `interrupt` message (the console's empty text frame). */
export const INTERRUPT = Buffer.from([0x03]);

export interface ConsoleOpenRequest {
  containerId: string;
  command: string[];
  cols: number;
  rows: number;
}

export async function openConsole(
  containers: ContainerService,
  open: ConsoleOpenRequest,
): Promise<InteractiveExec> {
  if (open.command.some((arg) => arg.includes('\0'))) throw invalidArgument('command has a NUL character');
  const details = await containers.get(open.containerId);
  if (details.state !== 'running') {
    throw failedPrecondition(`容器未运行, 无法打开终端 (container is ${details.state})`);
  }
  const command = open.command.length > 0 ? open.command : LOGIN_SHELL;
  return containers.deps.client.openInteractiveExec(details.dockerId, command, {
    cols: open.cols,
    rows: open.rows,
  });
}
