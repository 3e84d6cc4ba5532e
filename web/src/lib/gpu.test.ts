import { describe, expect, it } from 'vitest';
import { gpuIndexLabel, gpuStateDisplay, shortUuid } from './gpu';

describe('GPU display', () => {
  it('labels the GPU states in Chinese', () => {
    expect(['ok', 'unhealthy', 'missing', 'mig', 'fabric'].map((s) => gpuStateDisplay(s).label)).toEqual([
      '正常',
      '故障',
      '已丢失',
      'MIG 模式',
      'NVLink 未就绪',
    ]);
    expect(gpuStateDisplay('').label).toBe('未知');
  });

  it('shortens a UUID, keeping its start and end', () => {
    expect(shortUuid('GPU-12345678-aaaa-bbbb-cccc-1234567890ab')).toBe('GPU-12345678…90ab');
    expect(shortUuid('GPU-short')).toBe('GPU-short');
  });

  it('lists a container’s GPUs by index, from `gpus`, else from `gpu_indices`', () => {
    const gpu = (index: number) => ({ uuid: `u${index}`, index, pci_bus_id: '', state: 'ok' as const });
    expect(gpuIndexLabel({ gpus: [gpu(3), gpu(1)], gpu_indices: [] })).toBe('GPU 1, 3');
    expect(gpuIndexLabel({ gpus: [], gpu_indices: [0, 1] })).toBe('GPU 0, 1');
    expect(gpuIndexLabel({ gpus: [], gpu_indices: [] })).toBe('');
  });
});
