import type { CloudProduct, ServerConfig } from './types';

/** server_config is an object per docs/api.md; a JSON string is accepted too. */
export function parseServerConfig(config: CloudProduct['server_config']): ServerConfig {
  if (!config) return {};
  if (typeof config === 'string') {
    try {
      const parsed: unknown = JSON.parse(config);
      return typeof parsed === 'object' && parsed !== null ? (parsed as ServerConfig) : {};
    } catch {
      return {};
    }
  }
  return config;
}

export function isWindowsServer(product: Pick<CloudProduct, 'server_config'>): boolean {
  return parseServerConfig(product.server_config).system_gpu_type === 'windows';
}

/** The first part of 'available/total' is the most GPUs one purchase may take. */
export function availableGpus(product: Pick<CloudProduct, 'gpu_available' | 'gpu_count'>): number {
  if (typeof product.gpu_available === 'number') return Math.max(0, product.gpu_available);
  const first = Number.parseInt(String(product.gpu_count).split('/')[0] ?? '', 10);
  return Number.isFinite(first) ? Math.max(0, first) : 0;
}

export function canPurchase(product: CloudProduct): boolean {
  return product.status === 'available' && availableGpus(product) > 0;
}
