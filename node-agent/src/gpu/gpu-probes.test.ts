import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchGpus } from './gpu-probe.js';
import { type CommandRunner, NvidiaSmiProbe } from './nvidia-smi-probe.js';
import { knownModel, SimulatedGpuProbe } from './simulated-gpu-probe.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');

function runner(outputs: Record<string, string | Error>): { run: CommandRunner; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    run: async (file, args) => {
      const key = [file, ...args].join(' ');
      calls.push(key);
      const out = outputs[file === 'nvidia-smi' && args.length > 0 ? 'nvidia-smi --query-gpu' : file];
      if (out === undefined) throw Object.assign(new Error(`spawn ${file} ENOENT`), { code: 'ENOENT' });
      if (out instanceof Error) throw out;
      return { stdout: out, stderr: '' };
    },
  };
}

describe('the nvidia-smi probe', () => {
  it('builds the inventory from the query, the header and nvidia-ctk', async () => {
    const { run, calls } = runner({
      'nvidia-smi --query-gpu': '0, GPU-1, NVIDIA H100 80GB HBM3, 81559, 0, 0, 0, 41, 69.85, 700.00\n',
      'nvidia-smi': fixture('h100-80gb-hbm3__590.48.01__nvidia-smi.txt'),
      'nvidia-ctk': fixture('nvidia-ctk__1.17.8__version.txt'),
    });
    const inventory = await new NvidiaSmiProbe(run).inventory();
    expect(inventory).toMatchObject({
      driverVersion: '590.48.01',
      cudaVersion: '13.1',
      containerToolkitVersion: '1.17.8',
      simulated: false,
      unsafeReason: '',
    });
    expect(inventory.gpus).toHaveLength(1);
    expect(calls[0]).toContain('--format=csv,noheader,nounits');
    expect(calls[0]).toContain(
      '--query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu,utilization.memory,temperature.gpu,power.draw,power.limit',
    );
  });

  it('marks the host unsafe with an old toolkit', async () => {
    const { run } = runner({
      'nvidia-smi --query-gpu': '0, GPU-1, Tesla T4, 15360, 0, 0, 0, 36, 9.00, 70.00\n',
      'nvidia-smi': fixture('tesla-t4__580.82.07__nvidia-smi.txt'),
      'nvidia-ctk': fixture('nvidia-ctk__1.16.1__version.txt'),
    });
    expect((await new NvidiaSmiProbe(run).inventory()).unsafeReason).toMatch(/1\.16\.1/);
  });

  it('reports no GPUs (and no reason) on a host without nvidia-smi', async () => {
    const inventory = await new NvidiaSmiProbe(runner({}).run).inventory();
    expect(inventory.gpus).toEqual([]);
    expect(inventory.unsafeReason).toBe('');
  });

  it('says why when nvidia-smi fails', async () => {
    const { run } = runner({
      'nvidia-smi --query-gpu': new Error(
        'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver',
      ),
    });
    expect((await new NvidiaSmiProbe(run).inventory()).unsafeReason).toMatch(
      /communicate with the NVIDIA driver/,
    );
  });
});

describe('simulated GPUs', () => {
  it('gives N GPUs of a known model with stable fake uuids', async () => {
    const probe = new SimulatedGpuProbe(8, 'RTX4090', 'node-a');
    const { gpus, simulated } = await probe.inventory();
    expect(simulated).toBe(true);
    expect(gpus.map((g) => g.model)).toEqual(Array(8).fill('NVIDIA GeForce RTX 4090'));
    expect(gpus.every((g) => g.memoryTotalMib === 24564 && g.utilizationPercent === 0)).toBe(true);
    expect(gpus.map((g) => g.uuid)).toEqual(
      (await new SimulatedGpuProbe(8, 'RTX4090', 'node-a').sample()).map((g) => g.uuid),
    );
    expect(gpus[0]?.uuid).not.toBe((await new SimulatedGpuProbe(1, 'RTX4090', 'node-b').sample())[0]?.uuid);
  });

  it('knows the usual names and keeps an unknown one as given', async () => {
    expect(knownModel('A100')?.memoryMib).toBe(81920);
    expect(knownModel('h100')?.memoryMib).toBe(81559);
    expect(knownModel('NVIDIA GeForce RTX 4090')?.name).toBe('NVIDIA GeForce RTX 4090');
    const [gpu] = await new SimulatedGpuProbe(1, 'Quantum Q1', 'n').sample();
    expect(gpu?.model).toBe('Quantum Q1');
  });

  it('matches GPUs by index or uuid', async () => {
    const gpus = await new SimulatedGpuProbe(2, 'T4', 'n').sample();
    const { found, unknown } = matchGpus(gpus, ['1', gpus[0]!.uuid, '7']);
    expect(found.map((g) => g.index)).toEqual([1, 0]);
    expect(unknown).toEqual(['7']);
  });
});
