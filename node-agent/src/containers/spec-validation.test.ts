import { describe, expect, it } from 'vitest';
import { checkMountTarget, resolveResources } from './spec-validation.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

describe('container request rules', () => {
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
});
