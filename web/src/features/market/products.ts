import type { CloudProduct } from '@gpucloud/control-plane/api';
import type { EntityId, ServerConfig } from './types';

/** server_config is an object per docs/api.md; a JSON string is accepted too. */
export function parseServerConfig(
  config: CloudProduct['server_config'] | string | null | undefined,
): ServerConfig {
  if (!config) return {};
  if (typeof config === 'string') {
    try {
      const parsed: unknown = JSON.parse(config);
      return typeof parsed === 'object' && parsed !== null ? (parsed as ServerConfig) : {};
    } catch {
      return {};
    }
  }
  return config as ServerConfig;
}

export function isWindowsServer(product: {
  server_config: CloudProduct['server_config'] | string | null;
}): boolean {
  return parseServerConfig(product.server_config).system_gpu_type === 'windows';
}

/** The first part of 'available/total' is the most GPUs one purchase may take. */
export function availableGpus(
  product: Pick<CloudProduct, 'gpu_count'> & Partial<Pick<CloudProduct, 'gpu_available'>>,
): number {
  if (typeof product.gpu_available === 'number') return Math.max(0, product.gpu_available);
  const first = Number.parseInt(String(product.gpu_count).split('/')[0] ?? '', 10);
  return Number.isFinite(first) ? Math.max(0, first) : 0;
}

export function canPurchase(product: CloudProduct): boolean {
  return product.status === 'available' && availableGpus(product) > 0;
}

/** The server's node holds the version's image: a purchase of it needs no pull (秒级启动). */
export function startsAtOnce(
  product: Partial<Pick<CloudProduct, 'warm_version_ids'>>,
  versionId: EntityId | undefined,
): boolean {
  if (versionId === undefined) return false;
  return (product.warm_version_ids ?? []).some((id) => String(id) === String(versionId));
}

/** With a version chosen (from the app market), servers that hold its image come first. */
export function preferWarm<T extends Partial<Pick<CloudProduct, 'warm_version_ids'>>>(
  products: readonly T[],
  versionId: EntityId | undefined,
): T[] {
  if (versionId === undefined) return [...products];
  return [...products].sort(
    (a, b) => Number(startsAtOnce(b, versionId)) - Number(startsAtOnce(a, versionId)),
  );
}
