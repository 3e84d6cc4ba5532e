import { describe, expect, it } from 'vitest';
import { gpuProblemText, gpuState, nvlinkDomains, placeGpus, sellableGpus } from './gpus.js';
import type { NodeGpuRow } from './model.js';

function gpu(index: number, over: Partial<NodeGpuRow> = {}): NodeGpuRow {
  return {
    node_id: 1,
    gpu_index: index,
    uuid: `GPU-${index}`,
    model: 'NVIDIA H100 80GB HBM3',
    memory_total_mib: 81559,
    pci_bus_id: `00000000:${(0x18 + index * 0x10).toString(16).toUpperCase()}:00.0`,
    health_problem: '',
    persistence_mode: true,
    mig_enabled: false,
    fabric_state: '',
    numa_node: index < 4 ? 0 : 1,
    nvlink_peers: [],
    missing_since: null,
    problem_since: null,
    ...over,
  };
}

const uuids = (gpus: NodeGpuRow[] | undefined) => gpus?.map((g) => g.uuid);

describe('GPU state', () => {
  it('names the first reason a GPU cannot be used', () => {
    expect(gpuState(gpu(0))).toBe('ok');
    expect(gpuState(gpu(0, { fabric_state: 'Completed' }))).toBe('ok');
    expect(gpuState(gpu(0, { fabric_state: 'In Progress' }))).toBe('fabric');
    expect(gpuState(gpu(0, { mig_enabled: true, fabric_state: 'In Progress' }))).toBe('mig');
    expect(gpuState(gpu(0, { health_problem: 'Xid 79', mig_enabled: true }))).toBe('unhealthy');
    expect(gpuState(gpu(0, { missing_since: new Date(), health_problem: 'Xid 79' }))).toBe('missing');
  });

  it('tells the holder why, in Chinese, with the index and bus id', () => {
    expect(gpuProblemText(gpu(0))).toBeNull();
    expect(gpuProblemText(gpu(0, { health_problem: 'Xid 79: GPU 已从总线掉线' }))).toBe(
      'GPU 0 (00000000:18:00.0) 故障: Xid 79: GPU 已从总线掉线',
    );
    expect(gpuProblemText(gpu(2, { missing_since: new Date() }))).toBe('GPU 2 已从节点消失');
  });

  it('sells only present, healthy, whole, fabric-ready, free GPUs of a node whose GPUs could be read', () => {
    const gpus = [
      gpu(0),
      gpu(1, { health_problem: 'x' }),
      gpu(2, { mig_enabled: true }),
      gpu(3, { fabric_state: 'Not Started' }),
      gpu(4, { missing_since: new Date() }),
      gpu(5),
      gpu(6, { fabric_state: 'Completed' }),
    ];
    expect(uuids(sellableGpus({ host_info: {} }, gpus, new Set(['GPU-5'])))).toEqual(['GPU-0', 'GPU-6']);
    expect(sellableGpus({ host_info: { gpuProbeError: 'nvidia-smi failed' } }, gpus, new Set())).toEqual([]);
  });
});

describe('placement', () => {
  it('joins NVLink peers into domains', () => {
    const gpus = [
      gpu(0, { nvlink_peers: ['GPU-1'] }),
      gpu(1, { nvlink_peers: ['GPU-0', 'GPU-2'] }),
      gpu(2),
      gpu(3, { nvlink_peers: ['GPU-9'] }),
    ];
    expect(nvlinkDomains(gpus).map(uuids)).toEqual([['GPU-0', 'GPU-1', 'GPU-2'], ['GPU-3']]);
  });

  it('one GPU: the lowest index', () => {
    expect(uuids(placeGpus([gpu(3), gpu(5)], 1))).toEqual(['GPU-3']);
  });

  it('several: the NVLink domain that fits with the fewest free, then NUMA, then the lowest indices', () => {
    const all = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
      gpu(i, {
        // Domains {0,1,4,5} and {2,3,6,7}.
        nvlink_peers: [0, 1, 4, 5].includes(i)
          ? ['GPU-0', 'GPU-1', 'GPU-4', 'GPU-5']
          : ['GPU-2', 'GPU-3', 'GPU-6', 'GPU-7'],
      }),
    );
    const free = all.filter((g) => g.gpu_index !== 0);
    expect(uuids(placeGpus(free, 2, all))).toEqual(['GPU-1', 'GPU-4']);
    expect(uuids(placeGpus(free, 4, all))).toEqual(['GPU-2', 'GPU-3', 'GPU-6', 'GPU-7']);
    // No domain has five: NUMA nodes have 3 and 4: the lowest indices.
    expect(uuids(placeGpus(free, 5, all))).toEqual(['GPU-1', 'GPU-2', 'GPU-3', 'GPU-4', 'GPU-5']);

    const pcie = [1, 3, 4, 5, 6].map((i) => gpu(i));
    expect(uuids(placeGpus(pcie, 2))).toEqual(['GPU-1', 'GPU-3']);
    expect(uuids(placeGpus(pcie, 3))).toEqual(['GPU-4', 'GPU-5', 'GPU-6']);
    expect(uuids(placeGpus(pcie, 4))).toEqual(['GPU-1', 'GPU-3', 'GPU-4', 'GPU-5']);
    expect(placeGpus(pcie, 6)).toBeUndefined();
    // Deterministic whatever order the rows come in.
    expect(uuids(placeGpus([...pcie].reverse(), 3))).toEqual(['GPU-4', 'GPU-5', 'GPU-6']);
  });
});
