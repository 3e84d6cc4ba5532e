import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGpuProbe } from './create-probe.js';
import { matchGpus } from './gpu-probe.js';
import { BASE_FIELDS, HEALTH_FIELDS } from './nvidia-smi-parse.js';
import { type CommandRunner, NvidiaSmiProbe } from './nvidia-smi-probe.js';
import {
  knownModel,
  SimulatedGpuProbe,
  simulatedGpuControlPath,
  simulatedUuid,
  writeSimulatedGpuControl,
} from './simulated-gpu-probe.js';
import { XidMonitor } from './xid.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');

type Answer = string | Error | ((args: string[]) => string | Error);

/**
 * A fake nvidia-smi: `answers` by the first argument (`--help-query-gpu`, `--query-gpu`, `-L`,
 * `--version`, `topo`, '' for the bare table). A missing answer is "command not found".
 */
function fakeSmi(answers: Record<string, Answer>): { run: CommandRunner; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    run: async (file, args) => {
      calls.push([file, ...args]);
      const key = (args[0] ?? '').replace(/=.*$/, '');
      const answer = file === 'nvidia-smi' ? answers[key] : undefined;
      if (answer === undefined) throw Object.assign(new Error(`spawn ${file} ENOENT`), { code: 'ENOENT' });
      const out = typeof answer === 'function' ? answer(args) : answer;
      if (out instanceof Error) throw out;
      return { stdout: out, stderr: '' };
    },
  };
}

const failed = (stdout: string) =>
  Object.assign(new Error('Command failed: nvidia-smi'), { code: 9, stdout });

// Query rows below are made up in the agent's own field order (a header line, nounits), with
// values in the forms the real captures show; the other answers are real fixtures.
const FIELDS = [...BASE_FIELDS, ...HEALTH_FIELDS];
const UUID = (n: number) => `GPU-${String(n).repeat(8)}-0000-0000-0000-000000000000`;
function gpuRow(index: number, over: Record<string, string> = {}): string {
  const values: Record<string, string> = {
    index: String(index),
    uuid: UUID(index),
    name: 'NVIDIA H100 80GB HBM3',
    'memory.total': '81559',
    'memory.used': '0',
    'utilization.gpu': '0',
    'utilization.memory': '0',
    'temperature.gpu': '41',
    'power.draw': '69.85',
    'power.limit': '700.00',
    'pci.bus_id': `00000000:${(0x18 + index * 0x10).toString(16).toUpperCase()}:00.0`,
    persistence_mode: 'Enabled',
    'mig.mode.current': 'Disabled',
    'fabric.state': 'Completed',
    'fabric.status': 'Success',
    'remapped_rows.pending': 'No',
    'remapped_rows.failure': 'No',
    'ecc.errors.uncorrected.volatile.total': '0',
    gpu_recovery_action: 'None',
    ...over,
  };
  return FIELDS.map((f) => values[f]).join(', ');
}
/** The answer to a query: the header of the fields asked, and rows of those fields. */
function queryAnswer(rows: Record<string, string>[]): (args: string[]) => string {
  return (args) => {
    const fields = (args[0] ?? '').replace('--query-gpu=', '').split(',');
    const uuid = args.includes('-i') ? args[args.indexOf('-i') + 1] : undefined;
    const lines = rows
      .filter((row) => !uuid || row.uuid === uuid)
      .map((row) => fields.map((f) => row[f] ?? '[N/A]').join(', '));
    return `${fields.join(', ')}\n${lines.join('\n')}\n`;
  };
}
const rowValues = (index: number, over: Record<string, string> = {}) => {
  const cells = gpuRow(index, over).split(', ');
  return Object.fromEntries(FIELDS.map((f, i) => [f, cells[i] as string]));
};

const LIST = (n: number) =>
  Array.from({ length: n }, (_, i) => `GPU ${i}: NVIDIA H100 80GB HBM3 (UUID: ${UUID(i)})`).join('\n');

describe('the nvidia-smi probe', () => {
  it('asks for the fields the driver lists, with a header, and builds the inventory', async () => {
    const { run, calls } = fakeSmi({
      '--help-query-gpu': fixture('geforce-rtx-2080-super__610.57.04__help-query-gpu.txt'),
      '--query-gpu': queryAnswer([rowValues(0), rowValues(1, { persistence_mode: 'Disabled' })]),
      '--version': fixture('geforce-rtx-2080-super__610.57.04__version.txt'),
      topo: fixture('hgx-8x-h100__topo-m.txt'),
    });
    const inventory = await new NvidiaSmiProbe(run).inventory();
    expect(inventory).toMatchObject({
      driverVersion: '610.57.04',
      cudaVersion: '13.3',
      simulated: false,
      probeError: '',
    });
    expect(inventory.warnings).toEqual([
      'GPU 1 未开启持久模式 (persistence mode off): 容器启动可能变慢或超时, 建议运行 nvidia-smi -pm 1 或启用 nvidia-persistenced',
    ]);
    expect(
      inventory.gpus.map((g) => [g.uuid, g.pciBusId, g.numaNode, g.nvlinkPeers, g.healthProblem]),
    ).toEqual([
      [UUID(0), '00000000:18:00.0', 0, [UUID(1)], ''],
      [UUID(1), '00000000:28:00.0', 0, [UUID(0)], ''],
    ]);
    const query = calls.find((c) => c[1]?.startsWith('--query-gpu='));
    expect(query).toEqual(['nvidia-smi', `--query-gpu=${FIELDS.join(',')}`, '--format=csv,nounits']);
    expect(calls[0]).toEqual(['nvidia-smi', '--help-query-gpu']);
  });

  it('does not ask an older driver for fields it lacks, and reads the help once', async () => {
    const older = fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt')
      .split('\n')
      .filter((line) => !line.startsWith('"gpu_recovery_action"'))
      .join('\n');
    const { run, calls } = fakeSmi({
      '--help-query-gpu': older,
      '--query-gpu': queryAnswer([rowValues(0)]),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
      topo: new Error('topo failed'),
    });
    const probe = new NvidiaSmiProbe(run);
    await probe.inventory();
    await probe.sample();
    const queries = calls.filter((c) => c[1]?.startsWith('--query-gpu='));
    expect(queries).toHaveLength(2);
    expect(queries[0]?.[1]).not.toContain('gpu_recovery_action');
    expect(queries[0]?.[1]).toContain('remapped_rows.failure');
    expect(calls.filter((c) => c[1] === '--help-query-gpu')).toHaveLength(1);
  });

  it('reads a driver without --version from the table', async () => {
    const { run } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': queryAnswer([rowValues(0)]),
      '--version': failed('Invalid combination of input arguments.'),
      '': fixture('a100-pcie-40gb__535.129.03__nvidia-smi.txt'),
    });
    expect(await new NvidiaSmiProbe(run).inventory()).toMatchObject({
      driverVersion: '535.129.03',
      cudaVersion: '12.2',
      probeError: '',
    });
  });

  it('marks unhealthy GPUs from the query and keeps them listed', async () => {
    const { run } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': queryAnswer([
        rowValues(0, {
          'temperature.gpu': '[GPU requires reset]',
          'utilization.gpu': '[GPU requires reset]',
        }),
        rowValues(1, { 'mig.mode.current': 'Enabled', 'utilization.gpu': '[N/A]' }),
      ]),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
    });
    const { gpus } = await new NvidiaSmiProbe(run).inventory();
    expect(gpus.map((g) => [g.index, g.healthProblem, g.migEnabled, g.temperatureC])).toEqual([
      [0, 'GPU 需要重置 (GPU requires reset)', false, 0],
      [1, '', true, 41],
    ]);
  });

  it('reads GPU by GPU when the whole query fails, and keeps the one it cannot read', async () => {
    const rows = [rowValues(0), rowValues(1), rowValues(2)];
    const perGpu = queryAnswer(rows);
    const { run, calls } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': (args) => {
        if (!args.includes('-i'))
          return failed('Unable to determine the device handle for GPU0000:28:00.0: Unknown Error');
        if (args.includes(UUID(1)))
          return failed('Unable to determine the device handle for GPU0000:28:00.0: Unknown Error');
        return perGpu(args);
      },
      '-L': LIST(3),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
      topo: new Error('topo failed'),
    });
    const inventory = await new NvidiaSmiProbe(run).inventory();
    expect(inventory.probeError).toBe('');
    expect(inventory.gpus.map((g) => [g.index, g.uuid, g.healthProblem])).toEqual([
      [0, UUID(0), ''],
      [1, UUID(1), expect.stringMatching(/^nvidia-smi 无法读取该 GPU \(.*Unknown Error\)$/)],
      [2, UUID(2), ''],
    ]);
    expect(inventory.gpus[1]?.model).toBe('NVIDIA H100 80GB HBM3');
    expect(inventory.warnings[0]).toMatch(/逐个读取/);
    expect(calls.filter((c) => c.includes('-i')).map((c) => c.at(-1))).toEqual([UUID(0), UUID(1), UUID(2)]);
  });

  it('also falls back when the query prints a row of [Unknown Error] for a GPU', async () => {
    const rows = [rowValues(0), rowValues(1)];
    const perGpu = queryAnswer(rows);
    const { run } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': (args) =>
        args.includes('-i')
          ? perGpu(args)
          : `${FIELDS.join(', ')}\n${gpuRow(0)}\n${FIELDS.map(() => '[Unknown Error]').join(', ')}\n`,
      '-L': LIST(2),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
    });
    const { gpus } = await new NvidiaSmiProbe(run).inventory();
    expect(gpus.map((g) => g.uuid)).toEqual([UUID(0), UUID(1)]);
  });

  it('reports probeError only when nvidia-smi fails as a whole', async () => {
    const driverGone = failed(
      "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
    );
    const { run } = fakeSmi({
      '--help-query-gpu': driverGone,
      '--query-gpu': driverGone,
      '-L': driverGone,
      '--version': driverGone,
      '': driverGone,
    });
    const inventory = await new NvidiaSmiProbe(run).inventory();
    expect(inventory.gpus).toEqual([]);
    expect(inventory.probeError).toMatch(
      /^nvidia-smi 运行失败, 节点暂不接受 GPU 任务 \(nvidia-smi failed: .*communicate with the NVIDIA driver/,
    );
  });

  it('reports no GPUs and no error on a host without nvidia-smi', async () => {
    const inventory = await new NvidiaSmiProbe(fakeSmi({}).run).inventory();
    expect(inventory).toEqual({
      gpus: [],
      driverVersion: '',
      cudaVersion: '',
      simulated: false,
      warnings: [],
      probeError: '',
    });
  });

  it('merges critical Xids by PCI bus id into healthProblem, on inventory and sample', async () => {
    async function* kernel(): AsyncGenerator<string> {
      yield '3,1,1,-;NVRM: Xid (PCI:0000:28:00): 79, pid=7, name=python, GPU has fallen off the bus.';
      yield '3,2,2,-;NVRM: Xid (PCI:0000:18:00): 13, pid=7, name=python, Graphics Engine Exception';
    }
    const xid = new XidMonitor({ source: kernel() });
    await xid.done;
    const { run } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': queryAnswer([rowValues(0), rowValues(1, { 'remapped_rows.pending': 'Yes' })]),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
    });
    const probe = new NvidiaSmiProbe(run, { xid });
    const { gpus } = await probe.inventory();
    expect(gpus[0]?.healthProblem).toBe('');
    expect(gpus[1]?.healthProblem).toBe(
      'GPU 有待生效的显存行重映射, 需要重置 GPU (remapped_rows.pending: Yes); GPU 发生 Xid 79 错误 (GPU has fallen off the bus), 需要管理员处理',
    );
    expect((await probe.sample())[1]?.healthProblem).toMatch(/Xid 79/);
    probe.close();
  });

  it('keeps the topology of the last inventory in samples', async () => {
    const { run, calls } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': queryAnswer(Array.from({ length: 8 }, (_, i) => rowValues(i))),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
      topo: fixture('hgx-8x-h100__topo-m.txt'),
    });
    const probe = new NvidiaSmiProbe(run);
    await probe.inventory();
    const sample = await probe.sample();
    expect(sample[7]?.numaNode).toBe(1);
    expect(sample[7]?.nvlinkPeers).toHaveLength(7);
    expect(calls.filter((c) => c[1] === 'topo')).toHaveLength(1);
  });

  it('samples what monitoring charts from --query-gpu: utilisation, memory, temperature, power and its limit', async () => {
    let busy = false;
    const { run } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': (args) =>
        queryAnswer([
          rowValues(0),
          rowValues(
            1,
            busy
              ? {
                  'utilization.gpu': '97',
                  'memory.used': '61234',
                  'temperature.gpu': '74',
                  'power.draw': '612.34',
                  'power.limit': '650.00',
                }
              : { 'power.draw': '[N/A]' },
          ),
        ])(args),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
    });
    const probe = new NvidiaSmiProbe(run);
    const idle = await probe.sample();
    expect(
      idle.map((g) => [g.utilizationPercent, g.memoryUsedMib, g.temperatureC, g.powerDrawW, g.powerLimitW]),
    ).toEqual([
      [0, 0, 41, 69.85, 700],
      // A card without a power reading reads 0 W, never a made-up number.
      [0, 0, 41, 0, 700],
    ]);
    busy = true;
    const [, gpu] = await probe.sample();
    expect(gpu).toMatchObject({
      uuid: UUID(1),
      utilizationPercent: 97,
      memoryUsedMib: 61234,
      memoryTotalMib: 81559,
      temperatureC: 74,
      powerDrawW: 612.34,
      powerLimitW: 650,
    });
  });

  it('serves cachedInventory from the last read while young, shares one read between callers', async () => {
    let now = 1_000_000;
    const { run, calls } = fakeSmi({
      '--help-query-gpu': fixture('h100-80gb-hbm3__590.48.01__help-query-gpu.txt'),
      '--query-gpu': queryAnswer([rowValues(0)]),
      '--version': fixture('h100-80gb-hbm3__590.48.01__version.txt'),
      topo: fixture('hgx-8x-h100__topo-m.txt'),
    });
    const probe = new NvidiaSmiProbe(run, { now: () => now });
    const queries = () => calls.filter((c) => c[1]?.startsWith('--query-gpu=')).length;
    const [a, b, c] = await Promise.all([
      probe.cachedInventory(5000),
      probe.cachedInventory(5000),
      probe.cachedInventory(5000),
    ]);
    expect(queries()).toBe(1);
    expect(a).toBe(b);
    expect(b).toBe(c);
    now += 4000;
    expect(await probe.cachedInventory(5000)).toBe(a);
    expect(queries()).toBe(1);
    now += 2000;
    await probe.cachedInventory(5000);
    expect(queries()).toBe(2);
    await probe.inventory();
    expect(queries()).toBe(3);
  });
});

describe('createGpuProbe', () => {
  it('gives simulated GPUs reading the control file of the state folder', async () => {
    const stateDir = await mkdtemp(path.join(tmpdir(), 'gpu-state-'));
    try {
      const probe = createGpuProbe({
        simulate: { count: 2, model: 'RTX4090' },
        nodeName: 'node-a',
        stateDir,
        log: () => {},
      });
      await writeSimulatedGpuControl(stateDir, {
        unhealthy: { [simulatedUuid('node-a', 'RTX4090', 1)]: 'broken' },
      });
      const { gpus } = await probe.inventory();
      expect(gpus.map((g) => g.healthProblem)).toEqual(['', 'broken']);
      probe.close();
    } finally {
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});

describe('simulated GPUs', () => {
  let stateDir: string;
  beforeEach(async () => {
    stateDir = await mkdtemp(path.join(tmpdir(), 'sim-gpus-'));
  });
  afterEach(async () => {
    await rm(stateDir, { recursive: true, force: true });
  });
  const probe = (count = 8, model = 'H100') =>
    new SimulatedGpuProbe(count, model, 'node-a', simulatedGpuControlPath(stateDir));
  const uuid = (i: number, model = 'H100') => simulatedUuid('node-a', model, i);

  it('gives N GPUs of a known model with stable fake uuids', async () => {
    const sim = new SimulatedGpuProbe(8, 'RTX4090', 'node-a');
    const { gpus, simulated, warnings, probeError } = await sim.inventory();
    expect(simulated).toBe(true);
    expect(warnings).toEqual([]);
    expect(probeError).toBe('');
    expect(gpus.map((g) => g.model)).toEqual(Array(8).fill('NVIDIA GeForce RTX 4090'));
    expect(gpus.every((g) => g.memoryTotalMib === 24564 && g.utilizationPercent === 0)).toBe(true);
    expect(gpus.map((g) => g.uuid)).toEqual(
      (await new SimulatedGpuProbe(8, 'RTX4090', 'node-a').sample()).map((g) => g.uuid),
    );
    expect(gpus[0]?.uuid).toBe(simulatedUuid('node-a', 'RTX4090', 0));
    expect(gpus[0]?.uuid).not.toBe((await new SimulatedGpuProbe(1, 'RTX4090', 'node-b').sample())[0]?.uuid);
    expect(new Set(gpus.map((g) => g.pciBusId)).size).toBe(8);
  });

  it('defaults without a control file: healthy, persistence on, NUMA halves, no NVLink on PCIe cards', async () => {
    const { gpus } = await new SimulatedGpuProbe(
      8,
      'RTX4090',
      'node-a',
      simulatedGpuControlPath(stateDir),
    ).inventory();
    expect(gpus.map((g) => g.numaNode)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(gpus.every((g) => g.nvlinkPeers.length === 0 && g.healthProblem === '' && g.persistenceMode)).toBe(
      true,
    );
    expect(gpus.every((g) => !g.migEnabled && g.fabricState === '')).toBe(true);
    expect(
      (await new SimulatedGpuProbe(2, 'RTX4090', 'node-a').inventory()).gpus.map((g) => g.numaNode),
    ).toEqual([0, 0]);
  });

  it('puts SXM models in one NVLink domain', async () => {
    const { gpus } = await probe(8, 'H100').inventory();
    expect(gpus[0]?.nvlinkPeers).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => uuid(i)));
    expect(gpus[3]?.nvlinkPeers).toHaveLength(7);
  });

  it('renumbers and loses GPUs by the order list, keeping uuids, NUMA and peers', async () => {
    await writeSimulatedGpuControl(stateDir, { order: [uuid(3), uuid(0), uuid(7), 'GPU-SIM-unknown'] });
    const { gpus } = await probe().inventory();
    expect(gpus.map((g) => [g.index, g.uuid, g.numaNode])).toEqual([
      [0, uuid(3), 0],
      [1, uuid(0), 0],
      [2, uuid(7), 1],
    ]);
    expect(gpus[0]?.nvlinkPeers).toEqual([uuid(0), uuid(7)]);
  });

  it('applies unhealthy, mig, fabric, persistence, numaNodes and nvlink from the file', async () => {
    await writeSimulatedGpuControl(stateDir, {
      unhealthy: { [uuid(1)]: 'GPU 需要重置 (GPU requires reset)' },
      mig: [uuid(2)],
      fabricState: 'In Progress',
      persistenceMode: false,
      numaNodes: 4,
      nvlink: [
        [uuid(0), uuid(1)],
        [uuid(2), uuid(3)],
      ],
    });
    const inventory = await probe(4).inventory();
    expect(inventory.gpus.map((g) => [g.healthProblem, g.migEnabled, g.fabricState, g.numaNode])).toEqual([
      ['', false, 'In Progress', 0],
      ['GPU 需要重置 (GPU requires reset)', false, 'In Progress', 1],
      ['', true, 'In Progress', 2],
      ['', false, 'In Progress', 3],
    ]);
    expect(inventory.gpus.map((g) => g.nvlinkPeers)).toEqual([[uuid(1)], [uuid(0)], [uuid(3)], [uuid(2)]]);
    expect(inventory.warnings).toEqual([
      'GPU 0, 1, 2, 3 未开启持久模式 (persistence mode off): 容器启动可能变慢或超时, 建议运行 nvidia-smi -pm 1 或启用 nvidia-persistenced',
    ]);
  });

  it('reads the file on every inventory, sample and changed cachedInventory', async () => {
    const sim = probe(2);
    expect((await sim.cachedInventory(60_000)).gpus).toHaveLength(2);
    await writeSimulatedGpuControl(stateDir, { order: [uuid(1)] });
    expect((await sim.cachedInventory(60_000)).gpus.map((g) => g.uuid)).toEqual([uuid(1)]);
    expect((await sim.sample()).map((g) => g.uuid)).toEqual([uuid(1)]);
    await rm(simulatedGpuControlPath(stateDir));
    expect((await sim.inventory()).gpus).toHaveLength(2);
  });

  it('shares one read between concurrent cachedInventory callers', async () => {
    const sim = probe(2);
    const [a, b] = await Promise.all([sim.cachedInventory(60_000), sim.cachedInventory(60_000)]);
    expect(a).toBe(b);
    expect(await sim.cachedInventory(60_000)).toBe(a);
  });

  it('ignores a broken control file with a warning', async () => {
    await writeFile(simulatedGpuControlPath(stateDir), '{ not json');
    const inventory = await probe(2).inventory();
    expect(inventory.gpus).toHaveLength(2);
    expect(inventory.warnings[0]).toMatch(/^模拟 GPU 控制文件格式错误/);
  });

  it('knows the usual names and keeps an unknown one as given', async () => {
    expect(knownModel('A100')?.memoryMib).toBe(81920);
    expect(knownModel('h100')?.memoryMib).toBe(81559);
    expect(knownModel('NVIDIA GeForce RTX 4090')?.name).toBe('NVIDIA GeForce RTX 4090');
    const [gpu] = await new SimulatedGpuProbe(1, 'Quantum Q1', 'n').sample();
    expect(gpu?.model).toBe('Quantum Q1');
  });

  it('samples a plausible load that moves: each GPU its own, idle in the inventory', async () => {
    let now = Date.parse('2026-11-26T08:00:00Z');
    const sim = new SimulatedGpuProbe(4, 'RTX4090', 'node-a', undefined, () => now);
    expect((await sim.inventory()).gpus.every((g) => g.utilizationPercent === 0 && g.powerDrawW === 0)).toBe(
      true,
    );
    const samples: Awaited<ReturnType<typeof sim.sample>>[] = [];
    // Two hours every 15 s, as the control plane samples.
    for (let i = 0; i < 480; i++, now += 15_000) samples.push(await sim.sample());
    for (const gpus of samples) {
      for (const g of gpus) {
        expect(g.utilizationPercent).toBeGreaterThanOrEqual(0);
        expect(g.utilizationPercent).toBeLessThanOrEqual(100);
        expect(g.memoryUsedMib).toBeGreaterThan(0);
        expect(g.memoryUsedMib).toBeLessThanOrEqual(g.memoryTotalMib);
        expect(g.temperatureC).toBeGreaterThanOrEqual(25);
        expect(g.temperatureC).toBeLessThanOrEqual(85);
        expect(g.powerDrawW).toBeGreaterThan(0);
        expect(g.powerDrawW).toBeLessThanOrEqual(g.powerLimitW);
        expect(g.powerLimitW).toBe(450);
      }
    }
    const series = (i: number) => samples.map((gpus) => gpus[i]?.utilizationPercent ?? -1);
    // It moves over the whole range: idle stretches and busy ones, hotter when busier.
    expect(Math.min(...series(0))).toBeLessThan(10);
    expect(Math.max(...series(0))).toBeGreaterThan(90);
    expect(new Set(series(0)).size).toBeGreaterThan(20);
    const busiest = samples.reduce((a, b) =>
      (b[0]?.utilizationPercent ?? 0) > (a[0]?.utilizationPercent ?? 0) ? b : a,
    );
    const idlest = samples.reduce((a, b) =>
      (b[0]?.utilizationPercent ?? 0) < (a[0]?.utilizationPercent ?? 0) ? b : a,
    );
    expect(busiest[0]!.temperatureC).toBeGreaterThan(idlest[0]!.temperatureC + 20);
    expect(busiest[0]!.powerDrawW).toBeGreaterThan(idlest[0]!.powerDrawW + 200);
    // GPUs are not in step with each other.
    expect(series(0)).not.toEqual(series(1));
    // The same GPU at the same moment reads the same.
    now = Date.parse('2026-11-26T08:00:00Z');
    expect(await sim.sample()).toEqual(samples[0]);
  });

  it('matches GPUs by uuid or index', async () => {
    const gpus = await new SimulatedGpuProbe(2, 'T4', 'n').sample();
    const { found, unknown } = matchGpus(gpus, ['1', gpus[0]!.uuid, '7']);
    expect(found.map((g) => g.index)).toEqual([1, 0]);
    expect(unknown).toEqual(['7']);
  });
});
