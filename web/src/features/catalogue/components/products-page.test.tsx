import type { AdminProduct } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { dialog, fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

const product: AdminProduct = {
  id: 5,
  name: 'RTX 4090 单卡',
  region: '华东一区',
  gpu_type: 'RTX 4090',
  gpu_count: '6/8',
  gpu_available: 6,
  gpu_total: 8,
  cpu_model: 'EPYC 7543',
  cpu_cores: 64,
  memory: '32GB',
  disk_size: '200GB NVMe',
  price: 1.99,
  no_gpu_price: 0.2,
  server_config: { system_gpu_type: 'ubuntu' },
  status: 'available',
  node_id: 1,
  simulated: false,
  warm_version_ids: [],
  node_name: 'local',
  enabled: true,
};
const node = {
  id: 1,
  name: 'local',
  address: '127.0.0.1:50051',
  region: '本地',
  status: 'online',
  last_heartbeat_at: null,
  docker_available: true,
  gpu_model: 'RTX 4090',
};

beforeEach(() => {
  setSession('t', { username: 'root', nickname: '', isAdmin: true });
});

describe('admin products', { timeout: 60_000 }, () => {
  it('creates a product on a node with prices in yuan', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/products': () => ({ body: { items: [product], total: 1 } }),
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'POST /api/admin/products': () => ({ status: 201, body: { ...product, id: 6 } }),
    });
    renderRoutes(routes, '/admin/products');
    const row = await screen.findByTestId('admin-product-row-5');
    expect(within(row).getByText('¥1.99/卡/时')).toBeTruthy();
    expect(within(row).getByText('local')).toBeTruthy();
    fireEvent.click(getButton(document.body, '新建产品'));
    const modal = dialog();
    fireEvent.click(getButton(modal, '保存'));
    expect(
      await within(modal).findByText('请选择节点', { selector: '.ant-form-item-explain-error' }),
    ).toBeTruthy();
    expect(within(modal).getByText('请输入单价')).toBeTruthy();
    fireEvent.mouseDown(within(modal).getByLabelText('节点'));
    fireEvent.click(await screen.findByTitle('local（本地，RTX 4090）'));
    fireEvent.change(within(modal).getByLabelText('名称'), { target: { value: 'A100 八卡' } });
    fireEvent.change(within(modal).getByLabelText('地区'), { target: { value: '华北一区' } });
    fireEvent.change(within(modal).getByLabelText('GPU 型号'), { target: { value: 'A100' } });
    fireEvent.change(within(modal).getByLabelText('单价（元/卡/时）'), { target: { value: '7.5' } });
    fireEvent.change(within(modal).getByLabelText('CPU 核数'), { target: { value: '128' } });
    fireEvent.click(getButton(modal, '保存'));
    expect(await screen.findByText('产品已创建')).toBeTruthy();
    const created = requests.find((r) => r.method === 'POST' && r.path === '/api/admin/products');
    expect(created?.body).toEqual({
      node_id: 1,
      name: 'A100 八卡',
      region: '华北一区',
      gpu_type: 'A100',
      price: 7.5,
      no_gpu_price: 0,
      cpu_model: '',
      cpu_cores: 128,
      memory: '32GB',
      disk_size: '200GB NVMe',
      server_config: { system_gpu_type: 'ubuntu' },
      enabled: true,
    });
  });

  it('takes a product off the market with the switch; a refused delete says why', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/products': () => ({ body: { items: [product], total: 1 } }),
      'GET /api/admin/nodes': () => ({ body: { items: [node], total: 1 } }),
      'PUT /api/admin/products/5': () => ({ body: { ...product, enabled: false } }),
      'DELETE /api/admin/products/5': () => ({
        status: 409,
        body: { detail: '该服务器仍有容器，请先下架', code: 'PRODUCT_IN_USE' },
      }),
    });
    renderRoutes(routes, '/admin/products');
    const row = await screen.findByTestId('admin-product-row-5');
    fireEvent.click(within(row).getByLabelText('RTX 4090 单卡 上架状态'));
    expect(await screen.findByText('已下架')).toBeTruthy();
    const put = requests.find((r) => r.method === 'PUT');
    expect(put?.body).toMatchObject({ node_id: 1, price: 1.99, no_gpu_price: 0.2, enabled: false });

    fireEvent.click(getButton(row, '删除'));
    fireEvent.click(await waitForButton(document.body, '确定'));
    expect(await screen.findByText('删除失败：该服务器仍有容器，请先下架')).toBeTruthy();
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
  });
});
