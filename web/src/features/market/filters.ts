import type { BillingType } from '@gpucloud/control-plane/api';
import type { QueryParams } from '../../lib/api-client';
import { DEFAULT_BILLING_TYPE } from '../../lib/billing-types';

/** The GPU-type sentinel meaning "all types". */
export const ALL_GPU_TYPES = '全选';
export const GPU_COUNT_OPTIONS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

export type SystemType = 'all' | 'ubuntu' | 'windows';

export const SYSTEM_TYPE_OPTIONS: { value: SystemType; label: string }[] = [
  { value: 'all', label: '全部' },
  { value: 'ubuntu', label: 'Ubuntu' },
  { value: 'windows', label: 'Windows' },
];

export interface MarketFilters {
  billingType: BillingType;
  /** Empty means every region. */
  region: string;
  gpuCount: number;
  systemType: SystemType;
  gpuTypes: string[];
}

export const DEFAULT_MARKET_FILTERS: MarketFilters = {
  billingType: DEFAULT_BILLING_TYPE,
  region: '',
  gpuCount: 1,
  systemType: 'all',
  gpuTypes: [ALL_GPU_TYPES],
};

/** Query of GET /api/cloud-products: systemType is left out for 'all', gpuTypes for the 全选 sentinel. */
export function productQueryParams(filters: MarketFilters): QueryParams {
  const allTypes = filters.gpuTypes.length === 0 || filters.gpuTypes.includes(ALL_GPU_TYPES);
  return {
    billingType: filters.billingType,
    region: filters.region || undefined,
    gpuCount: filters.gpuCount,
    systemType: filters.systemType === 'all' ? undefined : filters.systemType,
    gpuTypes: allTypes ? undefined : filters.gpuTypes,
  };
}

/**
 * Keeps the multi-select consistent: picking 全选 clears the specific types, picking a type
 * drops 全选, and clearing everything falls back to 全选.
 */
export function normalizeGpuTypeSelection(previous: readonly string[], next: readonly string[]): string[] {
  const addedAll = next.includes(ALL_GPU_TYPES) && !previous.includes(ALL_GPU_TYPES);
  if (addedAll || next.length === 0) return [ALL_GPU_TYPES];
  const specific = next.filter((value) => value !== ALL_GPU_TYPES);
  return specific.length > 0 ? specific : [ALL_GPU_TYPES];
}
