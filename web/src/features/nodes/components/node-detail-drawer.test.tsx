import type { GpuNode } from '@gpucloud/control-plane/api';
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';
import { aNode, aNodeGpu } from '../test-fixtures';

const g0 = aNodeGpu(0, { allocated: true, container_id: 'c-train' });
const g1 = aNodeGpu(1, { persistence_mode: false });
const g2 = aNodeGpu(2, { state: 'missing', health_problem: '主机不再报告该 GPU' });
const g3 = aNodeGpu(3, { state: 'mig' });
const g4 = aNodeGpu(4, { state: 'unhealthy', health_problem: 'Xid 79: GPU has fallen off the bus' });
const g5 = aNodeGpu(5, { state: 'fabric', fabric_state: 'In Progress', numa_node: 1 });
// NVLink peers are UUIDs; the table shows them as the indices of the node's GPUs.
g0.nvlink_peers = [g3.uuid, g1.uuid];
g1.nvlink_peers = [g0.uuid];

const cdiNode: GpuNode = aNode({
  status: 'online',
  gpu_device_path: 'cdi',
  container_toolkit_mode: 'cdi',
  container_toolkit_version: '1.17.4',
  nvidia_container_cli_version: '1.17.4-cli',
  nvidia_container_runtime_hook_version: '1.17.4-hook',
  nvidia_cdi_hook_version: '1.17.4-cdi',
  nvidia_driver_version: '550.127.05',
  cuda_version: '12.4',
  warnings: ['GPU 1 未开启持久模式 (persistence mode)'],
  gpu_total: 6,
  gpu_allocated: 1,
  gpu_free: 1,
  gpu_usage: { free: 1, used: 1, held: 0, total: 6 },
  gpus: [g0, g1, g2, g3, g4, g5],
});

const legacyNode: GpuNode = aNode({
  id: 8,
  name: 'gpu-b',
  status: 'unsafe',
  gpu_device_path: 'legacy',
  container_toolkit_mode: 'legacy',
  unsafe_reason: 'Docker 默认运行时不是 runc',
  gpu_probe_error: 'nvidia-smi: NVIDIA-SMI has failed because it could not communicate with the driver',
  gpu_total: 2,
  gpu_free: 0,
});

function serve(node: GpuNode) {
  return fakeServer({
    'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
    [`GET /api/admin/nodes/${node.id}`]: () => ({ body: node }),
    [`GET /api/admin/nodes/${node.id}/metrics`]: () => ({ body: { gpus: [], samples: [] } }),
    [`GET /api/admin/nodes/${node.id}/images`]: () => ({
      body: { items: [], total: 0, disk_total_bytes: null, disk_free_bytes: null, listed_at: null },
    }),
  });
}

async function openDetail(node: GpuNode) {
  serve(node);
  renderRoutes(routes, '/admin/nodes');
  const row = await screen.findByTestId(`node-row-${node.id}`);
  fireEvent.click(getButton(row, '详情'));
  return row;
}

/** The text of the GPU table's cell under `header` in the row of `uuid`. */
function cell(uuid: string, header: string): HTMLElement {
  const table = screen.getByRole('table', { name: '节点 GPU' });
  const headers = Array.from(table.querySelectorAll('th')).map((th) => th.textContent);
  const column = headers.indexOf(header);
  expect(column).toBeGreaterThanOrEqual(0);
  const row = within(table).getByTestId(`node-gpu-${uuid}`);
  return row.querySelectorAll('td')[column] as HTMLElement;
}

beforeEach(() => {
  setSession('tok', { username: 'root', nickname: '', isAdmin: true });
});

describe('admin node detail: GPU truth', { timeout: 60_000 }, () => {
  it('shows the CDI path, the toolkit parts, the warnings, and each GPU by UUID with its state', async () => {
    const row = await openDetail(cdiNode);
    // The list: free, used and held at a glance.
    expect(within(row).getByText('空闲 1 · 已用 1 · 保留 0')).toBeTruthy();

    const runtime = await screen.findByTestId('node-gpu-runtime');
    expect(within(runtime).getByText('CDI')).toBeTruthy();
    expect(within(runtime).queryByText('传统 nvidia runtime')).toBeNull();
    expect(within(runtime).getByText('1.17.4-cli')).toBeTruthy();
    expect(within(runtime).getByText('1.17.4-hook')).toBeTruthy();
    expect(within(runtime).getByText('1.17.4-cdi')).toBeTruthy();
    expect(within(runtime).getByText('550.127.05')).toBeTruthy();
    expect(within(runtime).getByText('12.4')).toBeTruthy();

    const warnings = screen.getByTestId('node-warnings');
    expect(warnings.className).toContain('ant-alert-warning');
    expect(within(warnings).getByText('GPU 1 未开启持久模式 (persistence mode)')).toBeTruthy();
    expect(screen.queryByTestId('node-gpu-probe-error')).toBeNull();

    expect(cell(g0.uuid, '状态').textContent).toBe('正常');
    expect(cell(g2.uuid, '状态').textContent).toContain('已丢失');
    expect(cell(g2.uuid, '状态').textContent).toContain('主机不再报告该 GPU');
    expect(cell(g3.uuid, '状态').textContent).toBe('MIG 模式');
    expect(cell(g4.uuid, '状态').textContent).toContain('故障');
    expect(cell(g4.uuid, '状态').textContent).toContain('Xid 79: GPU has fallen off the bus');
    expect(cell(g5.uuid, '状态').textContent).toContain('NVLink 未就绪');

    expect(cell(g0.uuid, 'NVLink').textContent).toBe('GPU 1, GPU 3');
    expect(cell(g1.uuid, 'NVLink').textContent).toBe('GPU 0');
    expect(cell(g2.uuid, 'NVLink').textContent).toBe('-');

    expect(cell(g0.uuid, '总线 ID').textContent).toBe('00000000:01:00.0');
    expect(cell(g0.uuid, '使用中').textContent).toBe('c-train');
    expect(cell(g3.uuid, '使用中').textContent).toBe('空闲');
    expect(cell(g0.uuid, '持久模式').textContent).toBe('开');
    expect(cell(g1.uuid, '持久模式').textContent).toBe('关');
    expect(cell(g5.uuid, 'NUMA').textContent).toBe('1');
    // The UUID is shortened in the cell, whole on hover, and copyable.
    const uuid = cell(g0.uuid, 'UUID');
    expect(uuid.textContent).toContain('GPU-00000000');
    expect(uuid.textContent).not.toContain(g0.uuid);
    expect(uuid.querySelector('.ant-typography-copy')).toBeTruthy();
  });

  it('shows the legacy path, the probe error as an error alert and the unsafe reason', async () => {
    await openDetail(legacyNode);
    const runtime = await screen.findByTestId('node-gpu-runtime');
    expect(within(runtime).getByText('传统 nvidia runtime')).toBeTruthy();
    expect(within(runtime).queryByText('CDI')).toBeNull();
    const probe = screen.getByTestId('node-gpu-probe-error');
    expect(probe.className).toContain('ant-alert-error');
    expect(within(probe).getByText(/could not communicate with the driver/)).toBeTruthy();
    expect(screen.queryByTestId('node-warnings')).toBeNull();
    expect(screen.getByText('Docker 默认运行时不是 runc')).toBeTruthy();
  });
});
