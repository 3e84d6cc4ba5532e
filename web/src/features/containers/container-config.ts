import type { Container } from '@gpucloud/control-plane/api';

/** Custom ports of an existing container (spec §5 "Existing container port dialog"). */
export const EXISTING_PORT_MIN = 10000;
export const EXISTING_PORT_MAX = 20000;
export const MAX_CONTAINER_PORTS = 5;
export const MAX_CONTAINER_MOUNTS = 5;

export const MSG_PORT_INVALID = '请输入有效的端口号';
export const MSG_PORT_RANGE = '端口号必须在10000-20000之间';
export const MSG_PORT_FRAMEWORK = '该端口与框架默认端口重复';
export const MSG_PORT_ADDED = '该端口已添加';
export const MSG_PORTS_MAX = '最多只能添加5个自定义端口';

export const MSG_MOUNT_SOURCE = '挂载点源路径只能包含字母和数字';
export const MSG_MOUNT_TARGET = '挂载点目标路径必须以 / 开头';
export const MSG_MOUNT_INCOMPLETE = '请完善所有挂载点配置';
export const MSG_MOUNTS_MAX = '最多只能添加5个挂载点';

export type PortCheck = { ok: true; port: number } | { ok: false; error: string };

/**
 * The ports a custom port may not reuse: the framework's container ports (22, 8888, …) and the
 * host ports they are published on.
 */
export function frameworkPortsOf(container: Pick<Container, 'frame_ports'>): number[] {
  const ports = new Set<number>();
  for (const [containerPort, hostPort] of Object.entries(container.frame_ports ?? {})) {
    ports.add(Number(containerPort));
    ports.add(Number(hostPort));
  }
  return [...ports].filter(Number.isInteger);
}

/** Checks one typed port against the ports already in the dialog. */
export function checkContainerPort(
  input: string,
  ctx: { added: readonly number[]; frameworkPorts: readonly number[] },
): PortCheck {
  const text = input.trim();
  if (!/^\d+$/.test(text)) return { ok: false, error: MSG_PORT_INVALID };
  const port = Number(text);
  if (port < EXISTING_PORT_MIN || port > EXISTING_PORT_MAX) return { ok: false, error: MSG_PORT_RANGE };
  if (ctx.frameworkPorts.includes(port)) return { ok: false, error: MSG_PORT_FRAMEWORK };
  if (ctx.added.includes(port)) return { ok: false, error: MSG_PORT_ADDED };
  if (ctx.added.length >= MAX_CONTAINER_PORTS) return { ok: false, error: MSG_PORTS_MAX };
  return { ok: true, port };
}

export interface MountRow {
  source: string;
  target: string;
}

/** The first problem of one mount row, or null. */
export function checkMountRow(row: MountRow): string | null {
  const source = row.source.trim();
  const target = row.target.trim();
  if (!source || !target) return MSG_MOUNT_INCOMPLETE;
  if (!/^[A-Za-z0-9]+$/.test(source)) return MSG_MOUNT_SOURCE;
  if (!target.startsWith('/')) return MSG_MOUNT_TARGET;
  return null;
}

export function checkMounts(rows: readonly MountRow[]): string | null {
  if (rows.length > MAX_CONTAINER_MOUNTS) return MSG_MOUNTS_MAX;
  for (const row of rows) {
    const problem = checkMountRow(row);
    if (problem) return problem;
  }
  return null;
}

export function sameMounts(
  a: readonly MountRow[] | null | undefined,
  b: readonly MountRow[] | null | undefined,
) {
  const left = a ?? [];
  const right = b ?? [];
  return (
    left.length === right.length &&
    left.every((m, i) => m.source === right[i]?.source && m.target === right[i]?.target)
  );
}
