import type { Volume } from '@gpucloud/control-plane/api';

export const STORAGE_QUOTA_GB = 50;
export const MSG_VOLUME_REQUIRED = '请输入存储卷名称和路径';
export const MSG_VOLUME_NAME = '存储卷名称只能包含字母、数字、下划线和横线';
export const MSG_VOLUME_NAME_TAKEN = '存储卷名称已存在';
export const MSG_VOLUME_IN_USE = '该存储卷已被容器使用，无法删除';
export const MSG_DELETE_CONFIRM = '确定要删除这个存储卷吗？相关的数据将会丢失。';
export const MSG_PATH = '挂载路径格式不正确，必须以/开头且只能包含字母、数字、下划线、点、横线';

const NAME_PATTERN = /^[A-Za-z0-9_-]+$/;
const PATH_PATTERN = /^\/[A-Za-z0-9_/.-]*$/;

export function checkVolumeName(name: string): string | null {
  if (!name.trim()) return MSG_VOLUME_REQUIRED;
  return NAME_PATTERN.test(name.trim()) ? null : MSG_VOLUME_NAME;
}

export function checkVolumePath(path: string): string | null {
  if (!path.trim()) return MSG_VOLUME_REQUIRED;
  return PATH_PATTERN.test(path.trim()) && !path.split('/').includes('..') ? null : MSG_PATH;
}

/** The first problem of a new volume, or null (both fields missing: the spec's one message). */
export function checkNewVolume(name: string, path: string): string | null {
  if (!name.trim() || !path.trim()) return MSG_VOLUME_REQUIRED;
  return checkVolumeName(name) ?? checkVolumePath(path);
}

/** The first problem of a new name for a volume of `username`, or null. */
export function checkRename(newName: string, username: string, others: readonly Volume[]): string | null {
  const name = newName.trim();
  if (!name) return '请输入新的存储卷名称';
  if (!NAME_PATTERN.test(name)) return MSG_VOLUME_NAME;
  if (others.some((v) => v.name === `${username}-${name}` || v.name === name)) return MSG_VOLUME_NAME_TAKEN;
  return null;
}

/** What the rename field starts with: the part after the last dash. */
export const initialRename = (name: string) => name.slice(name.lastIndexOf('-') + 1);
