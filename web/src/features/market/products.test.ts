import type { CloudProduct } from '@gpucloud/control-plane/api';
import { describe, expect, it } from 'vitest';
import {
  availableGpus,
  canPurchase,
  isWindowsServer,
  parseServerConfig,
  preferWarm,
  startsAtOnce,
} from './products';

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
  no_gpu_price: 0.25,
  server_config: { system_gpu_type: 'ubuntu' },
  status: 'available',
  node_id: 1,
  simulated: false,
  warm_version_ids: [],
  ...overrides,
});

describe('cloud products', () => {
  it('reads server_config as an object or a JSON string', () => {
    expect(isWindowsServer(product({ server_config: { system_gpu_type: 'windows' } }))).toBe(true);
    expect(isWindowsServer({ server_config: '{"system_gpu_type":"windows"}' })).toBe(true);
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

describe('warm servers', () => {
  it('start at once for a version whose image their node holds, and come first for it', () => {
    const a = { id: 1, warm_version_ids: [] };
    const b = { id: 2, warm_version_ids: [7, 8] };
    const c = { id: 3, warm_version_ids: undefined };
    expect(startsAtOnce(b, 7)).toBe(true);
    expect(startsAtOnce(b, '8')).toBe(true);
    expect(startsAtOnce(a, 7)).toBe(false);
    expect(startsAtOnce(c, 7)).toBe(false);
    expect(startsAtOnce(b, undefined)).toBe(false);
    expect(preferWarm([a, b, c], 7).map((p) => p.id)).toEqual([2, 1, 3]);
    expect(preferWarm([a, b, c], undefined).map((p) => p.id)).toEqual([1, 2, 3]);
  });
});
