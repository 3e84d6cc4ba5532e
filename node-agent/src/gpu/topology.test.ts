import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTopology } from './topology.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');

describe('nvidia-smi topo -m on real captures', () => {
  it('reads an 8-GPU HGX H100: every GPU NV18 to the 7 others, NUMA 0 and 1', () => {
    const topology = parseTopology(fixture('hgx-8x-h100__topo-m.txt'));
    expect(topology).toHaveLength(8);
    expect(topology.map((t) => t.numaNode)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(topology[0]?.nvlinkPeers).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(topology[5]?.nvlinkPeers).toEqual([0, 1, 2, 3, 4, 6, 7]);
    expect(topology[4]?.cpuAffinity).toBe('48-95,144-191');
  });

  it('reads a PCIe-only 8x RTX 4090 host with NICs (tabs, empty cells): no NVLink, NUMA split, NIC rows ignored', () => {
    const topology = parseTopology(fixture('geforce-rtx-4090-8x-pcie-nic__topo-m.txt'));
    expect(topology.map((t) => t.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(topology.map((t) => t.numaNode)).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    expect(topology.every((t) => t.nvlinkPeers.length === 0)).toBe(true);
    expect(topology[6]?.cpuAffinity).toBe('56-111,168-223');
  });

  it('reads a 5-GPU PCIe host whose GPU0 sits on NUMA node 1, and stops at the legend', () => {
    const topology = parseTopology(fixture('pcie-5-gpus-2-numa__580.126.20__topo-m.txt'));
    expect(topology.map((t) => [t.index, t.numaNode, t.nvlinkPeers.length])).toEqual([
      [0, 1, 0],
      [1, 0, 0],
      [2, 0, 0],
      [3, 0, 0],
      [4, 0, 0],
    ]);
  });

  it('reads driver 610 output with an ANSI-underlined header (one GPU)', () => {
    expect(parseTopology(fixture('geforce-rtx-2080-super__610.57.04__topo-m.txt'))).toEqual([
      { index: 0, numaNode: 0, nvlinkPeers: [], cpuAffinity: '0-23' },
    ]);
  });

  it('reads an old matrix without NUMA Affinity (numaNode -1) and a pair of NV12 GPUs', () => {
    // Made up from the layouts above (2 GPUs, one NIC, no NUMA column as drivers before 450 print it).
    const output = [
      '\tGPU0\tGPU1\tmlx5_0\tCPU Affinity',
      'GPU0\t X \tNV12\tPXB\t48-63,176-191',
      'GPU1\tNV12\t X \tPXB\t48-63,176-191',
      'mlx5_0\tPXB\tPXB\t X \t',
    ].join('\n');
    expect(parseTopology(output)).toEqual([
      { index: 0, numaNode: -1, nvlinkPeers: [1], cpuAffinity: '48-63,176-191' },
      { index: 1, numaNode: -1, nvlinkPeers: [0], cpuAffinity: '48-63,176-191' },
    ]);
  });

  it('gives nothing for output that is not a matrix', () => {
    expect(
      parseTopology('NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.'),
    ).toEqual([]);
    expect(parseTopology('')).toEqual([]);
  });
});
