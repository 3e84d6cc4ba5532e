import { describe, expect, it } from 'vitest';
import {
  ALL_GPU_TYPES,
  DEFAULT_MARKET_FILTERS,
  normalizeGpuTypeSelection,
  productQueryParams,
} from './filters';

describe('productQueryParams', () => {
  it('leaves out systemType when all, region when empty and gpuTypes for 全选', () => {
    expect(productQueryParams(DEFAULT_MARKET_FILTERS)).toEqual({
      billingType: 'hourly',
      region: undefined,
      gpuCount: 1,
      systemType: undefined,
      gpuTypes: undefined,
    });
  });

  it('sends the chosen values, gpuTypes as a list', () => {
    expect(
      productQueryParams({
        billingType: 'daily',
        region: '华东一区',
        gpuCount: 4,
        systemType: 'windows',
        gpuTypes: ['RTX 4090', 'A100'],
      }),
    ).toEqual({
      billingType: 'daily',
      region: '华东一区',
      gpuCount: 4,
      systemType: 'windows',
      gpuTypes: ['RTX 4090', 'A100'],
    });
  });
});

describe('normalizeGpuTypeSelection', () => {
  it('picking a type drops 全选', () => {
    expect(normalizeGpuTypeSelection([ALL_GPU_TYPES], [ALL_GPU_TYPES, 'A100'])).toEqual(['A100']);
  });

  it('picking 全选 clears the specific types', () => {
    expect(normalizeGpuTypeSelection(['A100'], ['A100', ALL_GPU_TYPES])).toEqual([ALL_GPU_TYPES]);
  });

  it('an empty selection means all', () => {
    expect(normalizeGpuTypeSelection(['A100'], [])).toEqual([ALL_GPU_TYPES]);
  });

  it('keeps several specific types', () => {
    expect(normalizeGpuTypeSelection(['A100'], ['A100', 'RTX 4090'])).toEqual(['A100', 'RTX 4090']);
  });
});
