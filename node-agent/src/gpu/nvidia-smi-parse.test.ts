import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BASE_FIELDS,
  HEALTH_FIELDS,
  normalizePciBusId,
  parseDriverVersions,
  parseGpuCsv,
  parseGpuList,
  parseGpuQuery,
  parseHelpQueryGpu,
  parseNumber,
  persistenceWarning,
  queryFieldsFor,
} from './nvidia-smi-parse.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');

const MASKED_UUID = 'GPU-00000000-0000-0000-0000-000000000000';

describe('nvidia-smi --query-gpu on real captures', () => {
  it('reads an H100 (590) from a 212-column query with header and units, healthy', () => {
    const [gpu, ...rest] = parseGpuCsv(fixture('h100-80gb-hbm3__590.48.01__query-gpu.csv'));
    expect(rest).toEqual([]);
    expect(gpu).toEqual({
      index: 0,
      uuid: MASKED_UUID,
      model: 'NVIDIA H100 80GB HBM3',
      memoryTotalMib: 81559,
      memoryUsedMib: 0,
      utilizationPercent: 0,
      memoryUtilizationPercent: 0,
      temperatureC: 41,
      powerDrawW: 69.85,
      powerLimitW: 700,
      pciBusId: '00000000:00:09.0',
      healthProblem: '',
      persistenceMode: true,
      migEnabled: false,
      fabricState: 'Completed',
      numaNode: -1,
      nvlinkPeers: [],
    });
  });

  it('reads an H100 in MIG mode: utilisation [N/A] stays 0, the flag says MIG', () => {
    const [gpu] = parseGpuCsv(fixture('h100-80gb-hbm3-mig__590.48.01__query-gpu.csv'));
    expect(gpu).toMatchObject({
      model: 'NVIDIA H100 80GB HBM3',
      migEnabled: true,
      utilizationPercent: 0,
      memoryUsedMib: 59,
      temperatureC: 42,
      powerDrawW: 71.15,
      healthProblem: '',
      fabricState: 'Completed',
    });
  });

  it('reads an H200 (590) with MIG off', () => {
    const [gpu] = parseGpuCsv(fixture('h200__590.48.01__query-gpu.csv'));
    expect(gpu).toMatchObject({
      model: 'NVIDIA H200',
      memoryTotalMib: 143771,
      pciBusId: '00000000:83:00.0',
      migEnabled: false,
      persistenceMode: true,
      temperatureC: 28,
      powerDrawW: 77.71,
      healthProblem: '',
    });
  });

  it('reads driver 610 (kmd_version era): persistence off, no fabric', () => {
    const [gpu] = parseGpuCsv(fixture('geforce-rtx-2080-super__610.57.04__query-gpu.csv'));
    expect(gpu).toMatchObject({
      index: 0,
      uuid: MASKED_UUID,
      model: 'NVIDIA GeForce RTX 2080 SUPER',
      memoryTotalMib: 8192,
      memoryUsedMib: 211,
      temperatureC: 33,
      powerDrawW: 39.17,
      powerLimitW: 250,
      pciBusId: '00000000:0C:00.0',
      persistenceMode: false,
      migEnabled: false,
      fabricState: '',
      healthProblem: '',
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
      persistenceMode: false,
      fabricState: '',
      healthProblem: '',
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
      pciBusId: '00000000:01:00.0',
      healthProblem: '',
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
        g.healthProblem,
      ]),
    ).toEqual([
      [0, 'GPU-10fb0fbd', 'GeForce GTX TITAN X', 80, 76, 8000, 12287, ''],
      [1, 'GPU-d1df4664', 'GeForce GTX TITAN X', 36, 0, 9000, 12287, ''],
      [2, 'GPU-50205d95', 'GeForce GTX TITAN X', 71, 0, 8520, 12287, ''],
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
});

describe('GPU health', () => {
  it('marks a GPU whose cells say [GPU requires reset] (real H100 output), never reading 0 as healthy', () => {
    const [gpu] = parseGpuCsv(fixture('h100-80gb-hbm3__requires-reset__query-gpu.csv'));
    expect(gpu).toMatchObject({
      index: 0,
      temperatureC: 0,
      utilizationPercent: 0,
      memoryUsedMib: 0,
      healthProblem: 'GPU 需要重置 (GPU requires reset)',
    });
  });

  it('does not mark a GPU for an [Unknown Error] in a field that does not matter (real output)', () => {
    const [gpu] = parseGpuCsv(fixture('geforce-rtx-2080-ti__442.19__unknown-error__query-gpu.csv'));
    expect(gpu).toMatchObject({
      model: 'GeForce RTX 2080 Ti',
      utilizationPercent: 100,
      memoryUtilizationPercent: 37,
      temperatureC: 56,
      powerDrawW: 228.82,
      powerLimitW: 210,
      healthProblem: '',
    });
  });

  // The rows below are made up (the agent's own field order, values in nvidia-smi's forms):
  // no public capture shows these health fields non-zero.
  const header = [...BASE_FIELDS, ...HEALTH_FIELDS].join(', ');
  const row = (over: Partial<Record<string, string>>) => {
    const base: Record<string, string> = {
      index: '0',
      uuid: 'GPU-aaaaaaaa-0000-0000-0000-000000000000',
      name: 'NVIDIA H100 80GB HBM3',
      'memory.total': '81559',
      'memory.used': '0',
      'utilization.gpu': '0',
      'utilization.memory': '0',
      'temperature.gpu': '41',
      'power.draw': '69.85',
      'power.limit': '700.00',
      'pci.bus_id': '00000000:3B:00.0',
      persistence_mode: 'Enabled',
      'mig.mode.current': 'Disabled',
      'fabric.state': 'Completed',
      'fabric.status': 'Success',
      'remapped_rows.pending': 'No',
      'remapped_rows.failure': 'No',
      'ecc.errors.uncorrected.volatile.total': '0',
      gpu_recovery_action: 'None',
    };
    const values = { ...base, ...over };
    return `${header}\n${[...BASE_FIELDS, ...HEALTH_FIELDS].map((f) => values[f]).join(', ')}\n`;
  };
  const problem = (over: Partial<Record<string, string>>) => parseGpuCsv(row(over))[0]?.healthProblem;

  it('is healthy when every health field says so', () => {
    expect(problem({})).toBe('');
  });

  it.each([
    [{ gpu_recovery_action: 'Reset' }, /GPU 驱动要求恢复操作: 需要重置 GPU \(gpu_recovery_action: Reset\)/],
    [{ gpu_recovery_action: 'Drain P2P' }, /gpu_recovery_action: Drain P2P/],
    [{ 'remapped_rows.failure': 'Yes' }, /显存行重映射失败.*remapped_rows.failure: Yes/],
    [{ 'remapped_rows.pending': 'Yes' }, /需要重置 GPU \(remapped_rows.pending: Yes\)/],
    [{ 'ecc.errors.uncorrected.volatile.total': '3' }, /3 个不可纠正的 ECC 错误/],
    [
      { 'temperature.gpu': '[Unknown Error]' },
      /nvidia-smi 无法读取 GPU 状态 \(temperature.gpu: Unknown Error\)/,
    ],
    [{ 'memory.used': '[GPU requires reset]' }, /^GPU 需要重置 \(GPU requires reset\)$/],
    [{ 'utilization.gpu': '[GPU is lost]' }, /GPU is lost/],
    [{ 'fabric.status': 'Failure' }, /NVLink fabric 注册失败 \(fabric.status: Failure\)/],
  ])('reports %o', (over, expected) => {
    expect(problem(over)).toMatch(expected);
  });

  it('joins several problems', () => {
    expect(problem({ 'remapped_rows.pending': 'Yes', 'ecc.errors.uncorrected.volatile.total': '1' })).toMatch(
      /remapped_rows.pending: Yes.*; .*ECC/,
    );
  });

  it('reads [N/A] in health fields as nothing to report, and keeps the fabric state as reported', () => {
    const [gpu] = parseGpuCsv(
      row({
        'fabric.state': 'In Progress',
        'fabric.status': 'N/A',
        'remapped_rows.pending': '[N/A]',
        'ecc.errors.uncorrected.volatile.total': '[N/A]',
        gpu_recovery_action: '[N/A]',
        'power.draw': '[Unknown Error]',
      }),
    );
    expect(gpu).toMatchObject({ fabricState: 'In Progress', healthProblem: '', powerDrawW: 0 });
    expect(parseGpuCsv(row({ 'fabric.state': '[Not Supported]' }))[0]?.fabricState).toBe('');
  });

  it('counts the [Unknown Error] row of a GPU nvidia-smi cannot name, and keeps the others', () => {
    const fields = ['index', 'uuid', 'name', 'memory.total'];
    const output = [
      '0, GPU-aaaaaaaa-0000-0000-0000-000000000000, NVIDIA GeForce RTX 3090, 24576',
      'Unable to determine the device handle for GPU0000:02:00.0: Unknown Error',
      '[Unknown Error], [Unknown Error], [Unknown Error], [Unknown Error]',
      '2, GPU-cccccccc-0000-0000-0000-000000000000, NVIDIA GeForce RTX 3090, 24576',
    ].join('\n');
    const { gpus, unreadableRows } = parseGpuQuery(output, fields);
    expect(gpus.map((g) => g.index)).toEqual([0, 2]);
    expect(unreadableRows).toBe(1);
  });

  it('warns about persistence mode off, naming the GPUs by index', () => {
    const gpus = parseGpuCsv(fixture('geforce-rtx-2080-super__610.57.04__query-gpu.csv'));
    expect(persistenceWarning(gpus)).toBe(
      'GPU 0 未开启持久模式 (persistence mode off): 容器启动可能变慢或超时, 建议运行 nvidia-smi -pm 1 或启用 nvidia-persistenced',
    );
    expect(persistenceWarning(parseGpuCsv(fixture('h200__590.48.01__query-gpu.csv')))).toBe('');
  });

  it('parses numbers with units and refuses placeholders', () => {
    expect(parseNumber('81559 MiB')).toBe(81559);
    expect(parseNumber(' 69.85 W ')).toBe(69.85);
    expect(parseNumber('0 %')).toBe(0);
    expect(parseNumber('-8')).toBe(-8);
    for (const cell of ['[N/A]', 'N/A', '[Not Supported]', '', 'Enabled', '[GPU requires reset]', undefined])
      expect(parseNumber(cell)).toBeUndefined();
  });
});

describe('the fields a driver supports (--help-query-gpu)', () => {
  it('lists the fields of driver 610 and 590 with their aliases', () => {
    for (const file of [
      'geforce-rtx-2080-super__610.57.04__help-query-gpu.txt',
      'h100-80gb-hbm3__590.48.01__help-query-gpu.txt',
    ]) {
      const fields = parseHelpQueryGpu(fixture(file));
      expect(fields.has('pci.bus_id') && fields.has('gpu_bus_id')).toBe(true);
      expect(queryFieldsFor(fields)).toEqual([...BASE_FIELDS, ...HEALTH_FIELDS]);
    }
    expect(
      parseHelpQueryGpu(fixture('geforce-rtx-2080-super__610.57.04__help-query-gpu.txt')).has('kmd_version'),
    ).toBe(true);
  });

  it('asks an older driver only what it knows (help text derived from the 590 capture, recovery and fabric lines cut)', () => {
    const older = fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt')
      .split('\n')
      .filter((line) => !/^"(gpu_recovery_action|fabric\.[\w.]+)"/.test(line))
      .join('\n');
    const fields = queryFieldsFor(parseHelpQueryGpu(older));
    expect(fields).not.toContain('gpu_recovery_action');
    expect(fields).not.toContain('fabric.state');
    expect(fields).toContain('remapped_rows.pending');
    expect(queryFieldsFor(undefined)).toEqual([...BASE_FIELDS]);
  });

  it('finds no fields in output that is not the help', () => {
    expect(parseHelpQueryGpu('Field "x" is not a valid field to query.').size).toBe(0);
  });
});

describe('nvidia-smi -L', () => {
  it('lists the GPUs, not their MIG devices', () => {
    expect(parseGpuList(fixture('h100-80gb-hbm3-mig__590.48.01__list.txt'))).toEqual([
      { index: 0, model: 'NVIDIA H100 80GB HBM3', uuid: MASKED_UUID },
    ]);
  });
});

describe('driver and CUDA versions from real nvidia-smi output', () => {
  it.each([
    ['geforce-rtx-2080-super__610.57.04__nvidia-smi.txt', '610.57.04', '13.3'],
    ['geforce-rtx-2080-super__610.57.04__version.txt', '610.57.04', '13.3'],
    ['h100-80gb-hbm3__590.48.01__nvidia-smi.txt', '590.48.01', '13.1'],
    ['h100-80gb-hbm3__590.48.01__version.txt', '590.48.01', '13.1'],
    ['a100-sxm4-80gb__580.159.04__nvidia-smi.txt', '580.159.04', '13.0'],
    ['tesla-t4__580.82.07__nvidia-smi.txt', '580.82.07', '13.0'],
    ['geforce-rtx-2080-ti__570.172.08__nvidia-smi.txt', '570.172.08', '12.8'],
    ['geforce-rtx-4090__550.120__nvidia-smi.txt', '550.120', '12.4'],
    ['a100-pcie-40gb__535.129.03__nvidia-smi.txt', '535.129.03', '12.2'],
  ])('%s', (file, driverVersion, cudaVersion) => {
    expect(parseDriverVersions(fixture(file))).toEqual({ driverVersion, cudaVersion });
  });

  it('gives empty versions for unrelated text', () => {
    expect(
      parseDriverVersions('NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.'),
    ).toEqual({ driverVersion: '', cudaVersion: '' });
  });
});

describe('PCI addresses', () => {
  it('brings nvidia-smi and kernel forms together', () => {
    expect(normalizePciBusId('00000000:3B:00.0')).toBe('0000:3b:00');
    expect(normalizePciBusId('0000:3b:00')).toBe('0000:3b:00');
    expect(normalizePciBusId('PCI:0000:3b:00')).toBe('0000:3b:00');
    expect(normalizePciBusId('00000001:0C:00.0')).toBe('0001:0c:00');
    expect(normalizePciBusId('3b:00.0')).toBe('0000:3b:00');
    expect(normalizePciBusId('not a bus id')).toBe('');
    expect(normalizePciBusId('')).toBe('');
  });
});
