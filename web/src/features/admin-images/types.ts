// Every user's images are the control plane's AdminUserImage (@gpucloud/control-plane/api); these
// are the admin screen's form values and checks (the server's words).
import type { ImageQuotaInput } from '@gpucloud/control-plane/api';

/** The 发布到公共镜像 form: a framework by name (a new name makes one) and the version. */
export interface PublishFormValues {
  framework: string;
  version: string;
}

/** The defaults a user without an override has (IMAGE_QUOTA_COUNT, IMAGE_QUOTA_GB). */
export const DEFAULT_QUOTA: ImageQuotaInput = { max_count: 10, max_gb: 50 };

export const MSG_FRAMEWORK_REQUIRED = '请选择框架';
export const MSG_VERSION_REQUIRED = '请输入版本';
export const MSG_COUNT = '镜像数量上限为 0-1000';
export const MSG_GB = '镜像存储上限为 0-100000 GB';

export function checkQuotaCount(value: number | null | undefined): string | null {
  return value === null || value === undefined || !Number.isInteger(value) || value < 0 || value > 1000
    ? MSG_COUNT
    : null;
}

export function checkQuotaGb(value: number | null | undefined): string | null {
  return value === null || value === undefined || !Number.isFinite(value) || value < 0 || value > 100_000
    ? MSG_GB
    : null;
}

/** A user's images in the list: how many and how many bytes. */
export function usageByUser(images: readonly { user: { id: number }; size_bytes: number }[]) {
  const usage = new Map<number, { count: number; bytes: number }>();
  for (const image of images) {
    const entry = usage.get(image.user.id) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += image.size_bytes;
    usage.set(image.user.id, entry);
  }
  return usage;
}
