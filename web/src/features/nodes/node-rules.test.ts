import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  agentVersionLabel,
  cleanNewNode,
  diskFreeLabel,
  diskLow,
  gpuDevicePathLabel,
  gpuFreeSummary,
  gpuSummary,
  heartbeatAgeLabel,
  MSG_MAINTENANCE_UNTIL_PAST,
  MSG_NODE_ADDRESS,
  maintenanceLabel,
  nodeStatusDisplay,
  nvlinkPeerLabels,
  validateMaintenanceUntil,
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

describe('health at a glance', () => {
  it('says how long ago the heartbeat came', () => {
    expect(heartbeatAgeLabel(null)).toBe('无心跳');
    expect(heartbeatAgeLabel(999)).toBe('0 秒前');
    expect(heartbeatAgeLabel(59_999)).toBe('59 秒前');
    expect(heartbeatAgeLabel(60_000)).toBe('1 分钟前');
    expect(heartbeatAgeLabel(3 * 3600_000)).toBe('3 小时前');
    expect(heartbeatAgeLabel(3 * 24 * 3600_000)).toBe('3 天前');
  });

  it('shows disk free of total, and flags a nearly full one', () => {
    const GB = 1024 ** 3;
    expect(diskFreeLabel(null, 100 * GB)).toBe('未知');
    expect(diskFreeLabel(120 * GB, 500 * GB)).toBe('可用 120 GB / 500 GB');
    expect(diskLow(120 * GB, 500 * GB)).toBe(false);
    expect(diskLow(40 * GB, 500 * GB)).toBe(true);
    expect(diskLow(5 * GB, 20 * GB)).toBe(true);
    expect(diskLow(null, null)).toBe(false);
  });

  it('names the agent version with its build', () => {
    expect(agentVersionLabel({ agent_version: null, agent_build: null })).toBe('未知');
    expect(agentVersionLabel({ agent_version: '0.1.0', agent_build: 'source' })).toBe('0.1.0（source）');
  });
});

describe('维护', () => {
  it('takes no end or a future one', () => {
    const now = dayjs('2026-11-25T10:00:00Z');
    expect(validateMaintenanceUntil(null, now)).toBeNull();
    expect(validateMaintenanceUntil(now.add(1, 'hour'), now)).toBeNull();
    expect(validateMaintenanceUntil(now.subtract(1, 'minute'), now)).toBe(MSG_MAINTENANCE_UNTIL_PAST);
  });

  it('describes the maintenance with its end and reason', () => {
    expect(maintenanceLabel({ since: '2026-11-25T10:00:00Z', until: null, reason: null })).toBe(
      '结束时间另行通知',
    );
    expect(
      maintenanceLabel({ since: '2026-11-25T10:00:00Z', until: '2026-11-26T10:00:00Z', reason: '更换电源' }),
    ).toMatch(/^预计 2026-11-26 \d\d:00 结束；原因：更换电源$/);
  });
});
