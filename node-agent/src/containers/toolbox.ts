// The toolbox (node-agent/toolbox/build.mjs) makes any image a machine a user can reach: it is
// mounted read-only at /.gpucloud in every container, its init runs the image's own command
// after starting our SSH server, and its scripts set the password and keys with its own busybox.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Healthcheck, ImageConfig, PortMapping } from '../docker/container-client.js';
import { exposesJupyter, JUPYTER_CONTAINER_PORT } from './jupyter-access.js';

export const TOOLBOX_MOUNT = '/.gpucloud';
export const TOOLBOX_SH = `${TOOLBOX_MOUNT}/bin/sh`;
export const TOOLBOX_INIT = `${TOOLBOX_MOUNT}/init`;
export const TOOLBOX_ACCESS = `${TOOLBOX_MOUNT}/access`;
export const TOOLBOX_HEALTH = `${TOOLBOX_MOUNT}/health`;
const REQUIRED = [
  'init',
  'access',
  'health',
  'lib/common.sh',
  'bin/busybox',
  'bin/dropbear',
  'bin/dropbearkey',
  'staged',
];

export const SSH_CONTAINER_PORT = 22;

export class ToolboxError extends Error {}

/**
 * The toolbox folder to mount: `dir/current` as built by build.mjs (resolved, so containers
 * keep the version they were created with), or `dir` itself when it holds a toolbox.
 */
export function resolveToolbox(dir: string): string {
  const candidates = [path.join(dir, 'current'), dir];
  for (const candidate of candidates) {
    if (!existsSync(path.join(candidate, 'init'))) continue;
    const resolved = realpathSync(candidate);
    const missing = REQUIRED.filter((file) => !existsSync(path.join(resolved, file)));
    if (missing.length > 0) {
      throw new ToolboxError(`容器工具箱 ${resolved} 不完整, 缺少 ${missing.join(', ')}`);
    }
    return resolved;
  }
  throw new ToolboxError(
    `容器工具箱不存在 (no toolbox in ${dir}): build it with \`node node-agent/toolbox/build.mjs ${dir}\` ` +
      '(deploy/agent/install.sh does this)',
  );
}

/**
 * The agent waits for its own probe on create and start; Docker's check is what tells the truth
 * after a restart of Docker, the host or the agent (healthy within one interval), and when the
 * SSH server or Jupyter stops answering later.
 */
export const HEALTHCHECK: Healthcheck = {
  test: [TOOLBOX_HEALTH],
  intervalMs: 10_000,
  timeoutMs: 10_000,
  retries: 3,
  startPeriodMs: 300_000,
  startIntervalMs: 1_000,
};

/** What the container runs: the image's ENTRYPOINT + CMD, or the request's command as CMD. */
export function imageCommand(image: ImageConfig, command: string[]): string[] {
  return [...image.entrypoint, ...(command.length > 0 ? command : image.command)];
}

/** The variables our init reads. */
export function toolboxEnv(ports: PortMapping[], imageUser: string): string[] {
  const ssh =
    ports.find((p) => p.name === 'ssh' && p.protocol === 'tcp')?.containerPort ?? SSH_CONTAINER_PORT;
  return [
    `GPUCLOUD_SSH_PORT=${ssh}`,
    ...(exposesJupyter(ports) ? [`GPUCLOUD_JUPYTER_PORT=${JUPYTER_CONTAINER_PORT}`] : []),
    ...(imageUser ? [`GPUCLOUD_USER=${imageUser}`] : []),
  ];
}

/** Jupyter as the health check last saw it: running, starting, absent (not in the image), image (its own). */
export function jupyterFromHealth(output: string): string {
  const m = /jupyter=(\w+)/.exec(output);
  return m && m[1] !== 'off' ? m[1]! : '';
}
