import { describe, expect, it } from 'vitest';
import {
  cleanNewNode,
  gpuSummary,
  MSG_NODE_ADDRESS,
  nodeStatusDisplay,
  validateNodeAddress,
} from './node-rules';

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
