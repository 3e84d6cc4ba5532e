import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  parseDriverVersions,
  parseGpuCsv,
  parseNumber,
  parseToolkitVersion,
  QUERY_FIELDS,
  toolkitUnsafeReason,
} from './nvidia-smi-parse.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');

describe('nvidia-smi CSV on real captures', () => {
  it('reads an H100 from a 212-column query with header and units', () => {
    const [gpu, ...rest] = parseGpuCsv(fixture('h100-80gb-hbm3__590.48.01__query-gpu.csv'));
    expect(rest).toEqual([]);
    expect(gpu).toEqual({
      index: 0,
      uuid: 'GPU-00000000-0000-0000-0000-000000000000',
      model: 'NVIDIA H100 80GB HBM3',
      memoryTotalMib: 81559,
      memoryUsedMib: 0,
      utilizationPercent: 0,
      memoryUtilizationPercent: 0,
      temperatureC: 41,
      powerDrawW: 69.85,
      powerLimitW: 700,
    });
  });

  it('reads an L40S under load', () => {
    const [gpu] = parseGpuCsv(fixture('l40s__595.80__query-gpu.csv'));
    expect(gpu).toMatchObject({
      model: 'NVIDIA L40S',
      memoryTotalMib: 46068,
      utilizationPercent: 100,
      memoryUtilizationPercent: 9,
      temperatureC: 63,
      powerDrawW: 144.97,
      powerLimitW: 350,
    });
  });

  it('reads a GeForce RTX 4080 SUPER full of [N/A]', () => {
    const [gpu] = parseGpuCsv(fixture('geforce-rtx-4080-super__595.71.05__query-gpu.csv'));
    expect(gpu).toMatchObject({
      index: 0,
      model: 'NVIDIA GeForce RTX 4080 SUPER',
      memoryTotalMib: 16376,
      memoryUsedMib: 596,
      utilizationPercent: 0,
      memoryUtilizationPercent: 23,
      temperatureC: 43,
      powerDrawW: 26.2,
      powerLimitW: 320,
    });
  });

  it('reads noheader,nounits rows in the given field order, [Not Supported] as 0', () => {
    const fields = [
      'index',
      'uuid',
      'name',
      'temperature.gpu',
      'utilization.gpu',
      'memory.used',
      'memory.total',
    ];
    const gpus = parseGpuCsv(fixture('geforce-gtx-titan-x__gpustat__noheader-nounits.csv'), fields);
    expect(
      gpus.map((g) => [
        g.index,
        g.uuid.slice(0, 12),
        g.model,
        g.temperatureC,
        g.utilizationPercent,
        g.memoryUsedMib,
        g.memoryTotalMib,
      ]),
    ).toEqual([
      [0, 'GPU-10fb0fbd', 'GeForce GTX TITAN X', 80, 76, 8000, 12287],
      [1, 'GPU-d1df4664', 'GeForce GTX TITAN X', 36, 0, 9000, 12287],
      [2, 'GPU-50205d95', 'GeForce GTX TITAN X', 71, 0, 8520, 12287],
    ]);
  });

  it('strips units from noheader output (a Tesla T4 on Colab)', () => {
    const [gpu] = parseGpuCsv(fixture('tesla-t4__580.82.07__index-name-memory-driver__noheader.csv'), [
      'index',
      'name',
      'memory.total',
      'driver_version',
    ]);
    expect(gpu).toMatchObject({ index: 0, model: 'Tesla T4', memoryTotalMib: 15360, uuid: '' });
  });

  it('reads the agent query format and skips lines that are not rows', () => {
    const output = [
      '0, GPU-aaaa, NVIDIA A100-SXM4-80GB, 81920, 1024, 37, 5, 44, 61.32, 400.00',
      '1, GPU-bbbb, NVIDIA A100-SXM4-80GB, 81920, [N/A], [Not Supported], [Unknown Error], 39, [N/A], [N/A]',
      'WARNING: infoROM is corrupted at gpu 0000:3B:00.0',
      '',
    ].join('\n');
    expect(QUERY_FIELDS).toHaveLength(10);
    const gpus = parseGpuCsv(output);
    expect(gpus).toHaveLength(2);
    expect(gpus[1]).toMatchObject({
      index: 1,
      memoryUsedMib: 0,
      utilizationPercent: 0,
      temperatureC: 39,
      powerDrawW: 0,
    });
  });

  it('parses numbers with units and refuses placeholders', () => {
    expect(parseNumber('81559 MiB')).toBe(81559);
    expect(parseNumber(' 69.85 W ')).toBe(69.85);
    expect(parseNumber('0 %')).toBe(0);
    expect(parseNumber('-8')).toBe(-8);
    for (const cell of ['[N/A]', 'N/A', '[Not Supported]', '', 'Enabled', undefined])
      expect(parseNumber(cell)).toBeUndefined();
  });
});

describe('driver and CUDA versions from real nvidia-smi headers', () => {
  it.each([
    ['h100-80gb-hbm3__590.48.01__nvidia-smi.txt', '590.48.01', '13.1'],
    ['h100-80gb-hbm3__590.48.01__version.txt', '590.48.01', '13.1'],
    ['a100-sxm4-80gb__580.159.04__nvidia-smi.txt', '580.159.04', '13.0'],
    ['geforce-rtx-4090__550.120__nvidia-smi.txt', '550.120', '12.4'],
    ['tesla-t4__580.82.07__nvidia-smi.txt', '580.82.07', '13.0'],
  ])('%s', (file, driverVersion, cudaVersion) => {
    expect(parseDriverVersions(fixture(file))).toEqual({ driverVersion, cudaVersion });
  });

  it('gives empty versions for unrelated text', () => {
    expect(
      parseDriverVersions('NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.'),
    ).toEqual({
      driverVersion: '',
      cudaVersion: '',
    });
  });
});

describe('NVIDIA Container Toolkit version', () => {
  it('reads nvidia-ctk --version', () => {
    expect(parseToolkitVersion(fixture('nvidia-ctk__1.17.8__version.txt'))).toBe('1.17.8');
    expect(parseToolkitVersion(fixture('nvidia-ctk__1.16.1__version.txt'))).toBe('1.16.1');
    expect(parseToolkitVersion('NVIDIA Container Runtime Hook version 1.17.0\ncommit: 5bc0315')).toBe(
      '1.17.0',
    );
  });

  it('marks a host with a toolkit before 1.17.8 (or none) unsafe', () => {
    expect(toolkitUnsafeReason('1.16.1')).toMatch(/CVE-2025-23266/);
    expect(toolkitUnsafeReason('1.17.7')).not.toBe('');
    expect(toolkitUnsafeReason('1.17.8')).toBe('');
    expect(toolkitUnsafeReason('1.18.0')).toBe('');
    expect(toolkitUnsafeReason('')).not.toBe('');
  });

  it('compares versions numerically', () => {
    expect(compareVersions('1.17.10', '1.17.8')).toBeGreaterThan(0);
    expect(compareVersions('1.17.8', '1.17.8')).toBe(0);
    expect(compareVersions('1.9', '1.17.8')).toBeLessThan(0);
  });
});
