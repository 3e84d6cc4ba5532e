import { MOUNT_TARGET_PATTERN } from '../market/mounts';
import type { FrameworkPorts, MountEntry } from '../market/types';

/** Catalogue form rules; the messages are the control plane's, so browser and server agree. */
export const PORT_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/;
export const MSG_PORT_NAME = '端口名只能包含小写字母、数字、下划线和横线';
export const MSG_PORT_NAME_RESERVED = '端口名 custom 保留给 Windows 自定义端口';
export const MSG_PORT_NAME_DUPLICATE = '端口名重复';
export const MSG_PORT_NUMBER = '端口为 1-65535';
export const MSG_CUSTOM_PORTS = 'custom 端口格式应为 名称:端口,名称:端口';
export const MSG_IMAGE_REF = '镜像地址格式不正确';
export const MSG_ICON_URL = '图标地址须以 http://、https:// 或 / 开头';
export const MSG_MOUNTS_INCOMPLETE = '请完善所有挂载点配置';
export const MSG_MOUNT_TARGET = '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线';
export const MSG_MOUNTS_MAX = '最多只能添加5个挂载点';
export const MAX_DEFAULT_MOUNTS = 5;

/** One row of a ports editor: name → container port. */
export interface PortRow {
  name: string;
  port: number | null;
}

export function portRowsFrom(ports: FrameworkPorts | undefined): PortRow[] {
  return Object.entries(ports ?? {})
    .filter(([name]) => name !== 'custom')
    .map(([name, port]) => ({ name, port: Number(port) }));
}

export function customPortsFrom(ports: FrameworkPorts | undefined): string {
  const custom = ports?.custom;
  return typeof custom === 'string' ? custom : '';
}

function validPort(port: number | null | undefined): boolean {
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535;
}

export function checkPortRows(rows: readonly PortRow[]): string | null {
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (name === 'custom') return MSG_PORT_NAME_RESERVED;
    if (!PORT_NAME_PATTERN.test(name)) return MSG_PORT_NAME;
    if (seen.has(name)) return MSG_PORT_NAME_DUPLICATE;
    seen.add(name);
    if (!validPort(row.port)) return MSG_PORT_NUMBER;
  }
  return null;
}

export function portsMapFrom(rows: readonly PortRow[]): Record<string, number> {
  return Object.fromEntries(rows.map((row) => [row.name.trim(), Number(row.port)]));
}

/** "rdp:3389,ssh:22": empty is allowed (no extra ports). */
export function checkCustomPorts(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  for (const entry of text.split(',')) {
    const match = /^([a-z][a-z0-9_-]{0,31}):(\d{1,5})$/.exec(entry);
    if (!match || !validPort(Number(match[2]))) return MSG_CUSTOM_PORTS;
  }
  return null;
}

export function checkImageRef(value: string): string | null {
  const text = value.trim();
  if (!text) return '请输入镜像地址';
  return /^[a-z0-9][a-z0-9._/:@-]*$/.test(text) ? null : MSG_IMAGE_REF;
}

export function checkIconUrl(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  if (!text) return null;
  return /^(https?:\/\/\S+|\/\S*)$/.test(text) ? null : MSG_ICON_URL;
}

export function checkDefaultMounts(mounts: readonly MountEntry[]): string | null {
  if (mounts.length > MAX_DEFAULT_MOUNTS) return MSG_MOUNTS_MAX;
  for (const mount of mounts) {
    if (!mount.source.trim() || !mount.target.trim()) return MSG_MOUNTS_INCOMPLETE;
    if (!MOUNT_TARGET_PATTERN.test(mount.target.trim())) return MSG_MOUNT_TARGET;
  }
  return null;
}

/** At most two decimals, the money rule of the API. */
export function checkYuan(value: number | null | undefined, what: string): string | null {
  if (value === null || value === undefined || Number.isNaN(value)) return `请输入${what}`;
  if (value < 0) return `${what}不能为负数`;
  if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6) return `${what}最多两位小数`;
  return null;
}
