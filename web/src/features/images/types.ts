// The images themselves are the control plane's types (UserImage, UserImageDetail…, from
// @gpucloud/control-plane/api); these are the console's own rules and words around them. The
// checks say what the server says (POST /api/containers/{id}/save-image, PATCH /api/images/{id}),
// so a refused field reads the same before and after the request.
import type { PackageDiff, PackageVersion, UserImage } from '@gpucloud/control-plane/api';

/** The 保存镜像 and 重命名 form. */
export interface ImageFormValues {
  name: string;
  tag: string;
  description: string;
}

export const DEFAULT_TAG = 'latest';
export const NAME_MAX = 32;
export const DESCRIPTION_MAX = 200;

export const MSG_NAME_REQUIRED = '请输入镜像名称';
export const MSG_NAME_TOO_LONG = `镜像名称不能超过${NAME_MAX}个字符`;
export const MSG_NAME_PATTERN = '镜像名称只能包含小写字母、数字、点、下划线和短横线，且以字母或数字开头';
export const MSG_TAG_PATTERN =
  '标签只能包含字母、数字、点、下划线和短横线，且不能以点或短横线开头，最多64个字符';
export const MSG_DESCRIPTION_TOO_LONG = `描述不能超过${DESCRIPTION_MAX}个字符`;
export const MSG_PAUSE_NOTE = '保存时容器会短暂暂停，完成后自动恢复运行；挂载的存储卷不会保存到镜像中。';

const NAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
const TAG_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;

export function checkImageName(value: string | undefined): string | null {
  const name = (value ?? '').trim();
  if (!name) return MSG_NAME_REQUIRED;
  if (name.length > NAME_MAX) return MSG_NAME_TOO_LONG;
  return NAME_PATTERN.test(name) ? null : MSG_NAME_PATTERN;
}

/** An empty tag is `latest`. */
export function checkImageTag(value: string | undefined): string | null {
  const tag = (value ?? '').trim();
  if (!tag) return null;
  return TAG_PATTERN.test(tag) ? null : MSG_TAG_PATTERN;
}

export function checkDescription(value: string | undefined): string | null {
  return (value ?? '').trim().length > DESCRIPTION_MAX ? MSG_DESCRIPTION_TOO_LONG : null;
}

/** The request body of validated form values (an empty tag becomes `latest`). */
export function imageBody(values: ImageFormValues): ImageFormValues {
  return {
    name: values.name.trim(),
    tag: values.tag.trim() || DEFAULT_TAG,
    description: values.description.trim(),
  };
}

export const imageRef = (image: Pick<UserImage, 'name' | 'tag'>) => `${image.name}:${image.tag}`;

/** 保存中 n%, 可用, 失败. */
export function statusLabel(image: Pick<UserImage, 'status' | 'progress'>): string {
  if (image.status === 'saving') return `保存中 ${Math.round(image.progress)}%`;
  return image.status === 'ready' ? '可用' : '失败';
}

/** Whether a list holds an image still being saved (the list then refreshes every second). */
export const anySaving = (images: readonly Pick<UserImage, 'status'>[] | undefined) =>
  (images ?? []).some((image) => image.status === 'saving');

/** Packages whose name or version contains `search` (case-insensitive). */
export function filterPackages(list: readonly PackageVersion[], search: string): PackageVersion[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...list];
  return list.filter(
    (p) => p.name.toLowerCase().includes(needle) || p.version.toLowerCase().includes(needle),
  );
}

/** How many entries a diff has in all. */
export const diffSize = (diff: PackageDiff) => diff.added.length + diff.removed.length + diff.changed.length;

/** A digest shortened for a table: sha256:0123456789ab. */
export const shortDigest = (digest: string | null | undefined) =>
  digest ? digest.replace(/^(sha256:[0-9a-f]{12})[0-9a-f]+$/, '$1') : '-';

export const GB = 1024 ** 3;
