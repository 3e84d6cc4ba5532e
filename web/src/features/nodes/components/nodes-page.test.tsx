import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';
import type { GpuNode } from '../types';

const node: GpuNode = {
  id: 7,
  name: 'gpu-a',
  address: '10.0.0.1:50051',
  region: '华东一区',
  status: 'offline',
  last_heartbeat_at: null,
  docker_available: true,
  simulated: false,
  gpu_model: 'A100',
  gpu_total: 4,
};

beforeEach(() => {
  setSession('tok', { username: 'root', nickname: '', isAdmin: true });
});

describe('admin nodes', () => {
  it('adds a node through the dialog, checking the gRPC address first', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'POST /api/admin/nodes': () => ({ status: 201, body: { ...node, id: 8, name: 'gpu-b' } }),
    });
    renderRoutes(routes, '/admin/nodes');
    const row = await screen.findByTestId('node-row-7');
    expect(within(row).getByText('离线')).toBeTruthy();
    expect(within(row).getByText('可用')).toBeTruthy();

    fireEvent.click(getButton(document.body, '添加节点'));
    const dialog = await screen.findByText('公网地址');
    expect(dialog).toBeTruthy();
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: 'gpu-b' } });
    fireEvent.change(screen.getByLabelText('gRPC 地址'), { target: { value: 'no-port' } });
    fireEvent.change(screen.getByLabelText('令牌'), { target: { value: 'secret-token' } });
    fireEvent.change(screen.getByLabelText('地区'), { target: { value: '华北一区' } });
    fireEvent.click(getButton(document.body, '添加'));
    expect(await screen.findByText('请输入正确的 gRPC 地址，格式为 host:port')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('gRPC 地址'), { target: { value: '10.0.0.2:50051' } });
    fireEvent.click(getButton(document.body, '添加'));
    await waitFor(() => expect(requests.some((r) => r.method === 'POST')).toBe(true));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      name: 'gpu-b',
      address: '10.0.0.2:50051',
      token: 'secret-token',
      region: '华北一区',
    });
    expect(await screen.findByText('节点 gpu-b 已添加')).toBeTruthy();
  });

  it('an unreachable node is reported with the server detail', async () => {
    fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [], total: 0 } }),
      'POST /api/admin/nodes': () => ({
        status: 502,
        body: { detail: '无法连接节点', code: 'NODE_UNREACHABLE' },
      }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(await waitForButton(document.body, '添加节点'));
    await screen.findByText('公网地址');
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: 'gpu-b' } });
    fireEvent.change(screen.getByLabelText('gRPC 地址'), { target: { value: '10.0.0.2:50051' } });
    fireEvent.change(screen.getByLabelText('令牌'), { target: { value: 't' } });
    fireEvent.change(screen.getByLabelText('地区'), { target: { value: '华北一区' } });
    fireEvent.click(getButton(document.body, '添加'));
    expect(await screen.findByText('添加节点失败：无法连接节点')).toBeTruthy();
  });

  it('deletes a node after confirmation', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'DELETE /api/admin/nodes/7': () => ({ body: { ok: true } }),
    });
    renderRoutes(routes, '/admin/nodes');
    fireEvent.click(getButton(await screen.findByTestId('node-row-7'), '删除'));
    fireEvent.click(await waitForButton(document.body, '确定'));
    await waitFor(() =>
      expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/admin/nodes/7')).toBe(true),
    );
  });
});
