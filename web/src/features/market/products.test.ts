import { describe, expect, it } from 'vitest';
import { availableGpus, canPurchase, isWindowsServer, parseServerConfig } from './products';
import type { CloudProduct } from './types';

const product = (overrides: Partial<CloudProduct> = {}): CloudProduct => ({
  id: 1,
  name: 'node-1 RTX 4090',
  region: '华东一区',
  gpu_type: 'RTX 4090',
  gpu_count: '6/8',
  gpu_available: 6,
  gpu_total: 8,
  cpu_model: 'EPYC',
  cpu_cores: 64,
  memory: '32GB',
  disk_size: '200GB NVMe',
  price: 2.5,
  server_config: { system_gpu_type: 'ubuntu' },
  status: 'available',
  ...overrides,
});

describe('cloud products', () => {
  it('reads server_config as an object or a JSON string', () => {
    expect(isWindowsServer(product({ server_config: { system_gpu_type: 'windows' } }))).toBe(true);
    expect(isWindowsServer(product({ server_config: '{"system_gpu_type":"windows"}' }))).toBe(true);
    expect(isWindowsServer(product())).toBe(false);
    expect(parseServerConfig('not json')).toEqual({});
    expect(parseServerConfig(null)).toEqual({});
  });

  it('the first part of available/total is the most GPUs one may buy', () => {
    expect(availableGpus({ gpu_count: '3/8' })).toBe(3);
    expect(availableGpus({ gpu_count: '3/8', gpu_available: 2 })).toBe(2);
    expect(availableGpus({ gpu_count: 'n/a' })).toBe(0);
  });

  it('can be bought only when available with a free GPU', () => {
    expect(canPurchase(product())).toBe(true);
    expect(canPurchase(product({ gpu_available: 0, gpu_count: '0/8' }))).toBe(false);
    expect(canPurchase(product({ status: 'offline' }))).toBe(false);
  });
});
