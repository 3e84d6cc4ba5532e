import type { MountEntry } from './types';

export const MAX_MOUNTS = 5;
export const MOUNT_TARGET_PATTERN = /^\/[A-Za-z0-9_/.-]*$/;

export const MSG_MOUNTS_MAX = '最多只能添加5个挂载点';
export const MSG_MOUNTS_INCOMPLETE = '请完善所有挂载点配置';
export const MSG_MOUNT_TARGET = '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线';

/** null when one more mount may be added. */
export function canAddMount(current: readonly MountEntry[]): string | null {
  return current.length >= MAX_MOUNTS ? MSG_MOUNTS_MAX : null;
}

export function validateMounts(mounts: readonly MountEntry[]): string | null {
  if (mounts.length > MAX_MOUNTS) return MSG_MOUNTS_MAX;
  if (mounts.some((mount) => !mount.source.trim() || !mount.target.trim())) return MSG_MOUNTS_INCOMPLETE;
  if (mounts.some((mount) => !MOUNT_TARGET_PATTERN.test(mount.target.trim()))) return MSG_MOUNT_TARGET;
  return null;
}

export function cleanMounts(mounts: readonly MountEntry[]): MountEntry[] {
  return mounts.map((mount) => ({ source: mount.source.trim(), target: mount.target.trim() }));
}
