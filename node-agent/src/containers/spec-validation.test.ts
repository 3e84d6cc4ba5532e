import { describe, expect, it } from 'vitest';
import {
  checkDriverCapabilities,
  checkMountTarget,
  checkPorts,
  driverCapabilities,
  isReservedEnv,
  resolveResources,
  validateSpec,
} from './spec-validation.js';
import type { ContainerServiceSettings, ContainerSpecInput } from './types.js';

const settings = {
  bindAddress: '127.0.0.1',
  nodeName: 'n1',
  portRange: { start: 20000, end: 29999 },
} as ContainerServiceSettings;
const spec = (overrides: Partial<ContainerSpecInput> = {}): ContainerSpecInput => ({
  containerId: 'c1',
  ownerId: 'owner1',
  ownerName: 'Alice',
  displayName: 'c1',
  image: 'pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime',
  gpuDeviceIds: [],
  ports: [],
  mounts: [],
  resources: { memoryBytes: 0, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 0 },
  env: {},
  labels: {},
  command: [],
  ...overrides,
});

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

describe('container request rules', () => {
  it('publishes on the bind address only, whatever address the request names', () => {
    const port = { containerPort: 22, hostPort: 20001, protocol: 'tcp' as const, name: 'ssh' };
    for (const hostIp of ['', '0.0.0.0', '::', '10.0.0.5']) {
      expect(checkPorts([{ ...port, hostIp }], settings)[0]?.hostIp).toBe('127.0.0.1');
    }
    // A node bound to every address keeps an address the request names.
    const open = { ...settings, bindAddress: '0.0.0.0' };
    expect(checkPorts([{ ...port, hostIp: '' }], open)[0]?.hostIp).toBe('0.0.0.0');
    expect(checkPorts([{ ...port, hostIp: '192.0.2.7' }], open)[0]?.hostIp).toBe('192.0.2.7');
  });

  it('gives /dev/shm half the memory limit, at most 8 GiB, and 4096 pids by default', () => {
    expect(resolveResources({ memoryBytes: 4 * GIB, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 0 })).toEqual({
      memoryBytes: 4 * GIB,
      nanoCpus: 0,
      pidsLimit: 4096,
      shmSizeBytes: 2 * GIB,
    });
    expect(
      resolveResources({ memoryBytes: 64 * GIB, nanoCpus: 0, pidsLimit: 100, shmSizeBytes: 0 }).shmSizeBytes,
    ).toBe(8 * GIB);
    expect(
      resolveResources({ memoryBytes: 0, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 0 }).shmSizeBytes,
    ).toBe(8 * GIB);
    expect(
      resolveResources({ memoryBytes: 0, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 3 * GIB }).shmSizeBytes,
    ).toBe(3 * GIB);
    expect(() => resolveResources({ memoryBytes: MIB, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 0 })).toThrow(
      /6 MiB/,
    );
    expect(() => resolveResources({ memoryBytes: -1, nanoCpus: 0, pidsLimit: 0, shmSizeBytes: 0 })).toThrow();
  });

  it('accepts clean absolute mount targets only', () => {
    expect(checkMountTarget('/root/data')).toBe('/root/data');
    expect(checkMountTarget('/workspace/')).toBe('/workspace');
    for (const bad of [
      'data',
      '/a/../b',
      '/a//b',
      '/',
      '/proc',
      '/sys/fs',
      '/dev/shm',
      '/etc',
      '/usr',
      '/a/./b',
    ]) {
      expect(() => checkMountTarget(bad), bad).toThrow();
    }
  });

  it('refuses every NVIDIA_* variable but NVIDIA_REQUIRE_*, naming it in Chinese', () => {
    for (const key of [
      'NVIDIA_VISIBLE_DEVICES',
      'NVIDIA_DRIVER_CAPABILITIES',
      'NVIDIA_MIG_CONFIG_DEVICES',
      'NVIDIA_IMEX_CHANNELS',
      'NVIDIA_GDRCOPY',
    ]) {
      expect(isReservedEnv(key), key).toBe(true);
      expect(() => validateSpec(spec({ env: { [key]: 'all' } }), settings)).toThrow(
        new RegExp(`^环境变量 ${key} 由平台设置, 不能自定义 \\(`),
      );
    }
    expect(isReservedEnv('NVIDIA_REQUIRE_CUDA')).toBe(false);
    const ok = validateSpec(spec({ env: { NVIDIA_REQUIRE_CUDA: 'cuda>=12.4', NVIDIAX: '1' } }), settings);
    expect(ok.env).toEqual({ NVIDIA_REQUIRE_CUDA: 'cuda>=12.4', NVIDIAX: '1' });
  });

  it('adds only the allowed driver capabilities to compute,utility', () => {
    expect(driverCapabilities([])).toEqual(['compute', 'utility']);
    expect(driverCapabilities(checkDriverCapabilities(['video', 'Graphics', 'video', 'utility']))).toEqual([
      'compute',
      'utility',
      'video',
      'graphics',
    ]);
    for (const bad of ['all', 'ngx', 'compute,video', '']) {
      expect(() => checkDriverCapabilities([bad]), bad).toThrow(/^不支持的 NVIDIA 驱动能力/);
    }
    expect(
      validateSpec(spec({ extraDriverCapabilities: ['display'] }), settings).extraDriverCapabilities,
    ).toEqual(['display']);
    expect(validateSpec(spec(), settings).extraDriverCapabilities).toEqual([]);
  });
});
