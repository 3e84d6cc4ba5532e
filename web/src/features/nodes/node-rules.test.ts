import { describe, expect, it } from 'vitest';
import {
  cleanNewNode,
  gpuDevicePathLabel,
  gpuFreeSummary,
  gpuSummary,
  MSG_NODE_ADDRESS,
  nodeStatusDisplay,
  nvlinkPeerLabels,
  validateNodeAddress,
} from './node-rules';
import { aNodeGpu } from './test-fixtures';

describe('node display', () => {
  it('labels node statuses', () => {
    expect(nodeStatusDisplay('online')).toEqual({ label: '在线', color: 'success' });
    expect(nodeStatusDisplay('offline')).toEqual({ label: '离线', color: 'default' });
    expect(nodeStatusDisplay('unsafe')).toEqual({ label: '不安全', color: 'error' });
  });

  it('summarises GPUs as model × count', () => {
    expect(gpuSummary({ gpu_model: 'RTX 4090', gpu_total: 8 })).toBe('RTX 4090 × 8');
    expect(gpuSummary({ gpu_model: null, gpu_total: 0 })).toBe('无 GPU');
  });

  it('says how many GPUs may be rented now', () => {
    expect(gpuFreeSummary({ gpu_free: 3, gpu_total: 8 })).toBe('可用 3 / 8');
    expect(gpuFreeSummary({ gpu_free: 0, gpu_total: 0 })).toBe('');
  });

  it('names the GPU device path', () => {
    expect(gpuDevicePathLabel('cdi')).toBe('CDI');
    expect(gpuDevicePathLabel('legacy')).toBe('传统 nvidia runtime');
    expect(gpuDevicePathLabel('')).toBe('-');
  });

  it('resolves NVLink peers (UUIDs) to the indices of the node, in index order', () => {
    const a = aNodeGpu(0);
    const b = aNodeGpu(1);
    const c = aNodeGpu(2);
    const gpu = { nvlink_peers: [c.uuid, 'GPU-elsewhere', a.uuid] };
    expect(nvlinkPeerLabels(gpu, [a, b, c])).toEqual(['GPU 0', 'GPU 2', 'GPU-elsewhere']);
    expect(nvlinkPeerLabels({ nvlink_peers: [] }, [a, b, c])).toEqual([]);
  });
});

describe('new node form', () => {
  it('wants a gRPC address as host:port', () => {
    expect(validateNodeAddress('10.0.0.12:50051')).toBeNull();
    expect(validateNodeAddress('gpu-1.internal:7000')).toBeNull();
    expect(validateNodeAddress('[::1]:50051')).toBeNull();
    expect(validateNodeAddress('10.0.0.12')).toBe(MSG_NODE_ADDRESS);
    expect(validateNodeAddress('host:70000')).toBe(MSG_NODE_ADDRESS);
    expect(validateNodeAddress('http://host:5000')).toBe(MSG_NODE_ADDRESS);
  });

  it('trims the values and leaves out an empty public host', () => {
    expect(
      cleanNewNode({ name: ' n1 ', address: ' h:1 ', token: ' t ', region: ' 华东 ', public_host: ' ' }),
    ).toEqual({
      name: 'n1',
      address: 'h:1',
      token: 't',
      region: '华东',
    });
  });
});
