import type { CloudProduct, PurchaseAnswer } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, waitForButton } from '../../../test/render';

// antd screens render slowly in jsdom, more so while other test files run in parallel: wait longer
// than the default for them (this file only; vitest isolates test files).

const product = (overrides: Partial<CloudProduct>): CloudProduct => ({
  id: 1,
  name: 'node-a RTX 4090',
  region: '华东一区',
  gpu_type: 'RTX 4090',
  gpu_count: '6/8',
  gpu_available: 6,
  gpu_total: 8,
  cpu_model: 'EPYC 7543',
  cpu_cores: 64,
  memory: '32GB',
  disk_size: '200GB NVMe',
  price: 2.5,
  no_gpu_price: 0.25,
  server_config: { system_gpu_type: 'ubuntu' },
  status: 'available',
  node_id: 1,
  simulated: true,
  warm_version_ids: [],
  ...overrides,
});

function marketServer(purchaseAnswer: { status?: number; body: PurchaseAnswer | { detail: string } }) {
  return fakeServer({
    'GET /api/cloud-products/regions': () => ({ body: ['华东一区'] }),
    'GET /api/cloud-products/gpu-types': () => ({ body: ['RTX 4090'] }),
    'GET /api/cloud-products': () => ({
      body: {
        items: [product({}), product({ id: 2, name: 'node-b', gpu_count: '0/8', gpu_available: 0 })],
        total: 2,
      },
    }),
    'GET /api/frameworks': () => ({ body: [{ id: 1, name: 'PyTorch' }] }),
    'GET /api/frameworks/1/versions': () => ({
      body: [
        { id: 11, version: '2.1', system_type: 'ubuntu', ports: { ssh: 22, jupyter: 8888 } },
        { id: 12, version: '2.1', system_type: 'windows', ports: { custom: 'rdp:3389' } },
      ],
    }),
    'GET /api/cloud-products/1/port': () => ({ body: [12001] }),
    'POST /api/cloud-products/1/purchase': () => ({
      status: purchaseAnswer.status ?? 201,
      body: purchaseAnswer.body,
    }),
    'GET /api/containers': () => ({ body: { items: [], total: 0 } }),
  });
}

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});

async function openPurchase() {
  const buy = await screen.findByTestId('buy-1');
  expect((screen.getByTestId('buy-2') as HTMLButtonElement).disabled).toBe(true);
  fireEvent.click(buy);
  await screen.findByText('创建实例');
  // The app-market preset (?framework=PyTorch&version=2.1) picks the Ubuntu build of 2.1.
  await screen.findByText('2.1', { selector: '.ant-select-selection-item' });
}

describe('light-instance market', () => {
  it('lists servers with the default filters and a 模拟 GPU tag', async () => {
    const { requests } = marketServer({ body: { container_id: 'c1', status: 'creating' } });
    renderRoutes(routes, '/market');
    await screen.findByTestId('buy-1');
    expect(screen.getAllByText('模拟 GPU').length).toBeGreaterThan(0);
    expect(screen.getAllByText('¥2.50/卡/时').length).toBe(2);
    const list = requests.find((r) => r.path === '/api/cloud-products');
    expect(list?.search.toString()).toBe('billingType=hourly&gpuCount=1');
  });

  it('buys an hourly instance: terms first, occupied ports refused, then the documented payload', async () => {
    const { requests } = marketServer({ body: { container_id: 'c1', status: 'creating' } });
    const { router } = renderRoutes(routes, '/market?framework=PyTorch&version=2.1');
    await openPurchase();

    const dialog = document.querySelector<HTMLElement>('.ant-modal-content');
    if (!dialog) throw new Error('no purchase dialog');
    expect(within(dialog).getByText('32GB')).toBeTruthy();
    expect(within(dialog).getByText('200GB NVMe')).toBeTruthy();
    expect(screen.getByTestId('purchase-total').textContent).toBe('¥2.50');
    const confirm = getButton(document.body, '确认创建');
    expect(confirm.disabled).toBe(true);

    const portInput = within(dialog).getByLabelText('自定义端口');
    await waitFor(() => expect(requests.some((r) => r.path === '/api/cloud-products/1/port')).toBe(true));
    fireEvent.change(portInput, { target: { value: '12001' } });
    fireEvent.click(await waitForButton(document.body, '添加'));
    expect(await screen.findByText('12001端口已被占用')).toBeTruthy();
    fireEvent.change(portInput, { target: { value: '12002' } });
    fireEvent.click(getButton(document.body, '添加'));
    expect(await screen.findByText('12002')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText('GPU 数量'), { target: { value: '2' } });
    await waitFor(() => expect(screen.getByTestId('purchase-total').textContent).toBe('¥5.00'));

    fireEvent.click(screen.getByText('我已阅读并同意服务条款'));
    await waitFor(() => expect(getButton(document.body, '确认创建').disabled).toBe(false));
    fireEvent.click(getButton(document.body, '确认创建'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
    expect(await screen.findByText('实例已创建，正在拉取镜像并启动，进度见我的容器')).toBeTruthy();
    const purchase = requests.find((r) => r.method === 'POST' && r.path === '/api/cloud-products/1/purchase');
    expect(purchase?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(purchase?.body).toMatchObject({
      gpuCount: 2,
      needExpand: false,
      imageType: 'public',
      framework: 1,
      frameworkVersion: 11,
      frame_ports: { ssh: 22, jupyter: 8888 },
      custom_ports: [12002],
      agreeTerms: true,
      mounts: [],
      billing_type: 'hourly',
      duration: 1,
      total_price: 5,
    });
  });

  it('when the server refuses, says 创建失败 with its detail, stays, and a retry is a new purchase', async () => {
    const { requests } = marketServer({ status: 409, body: { detail: 'GPU 资源不足' } });
    const { router } = renderRoutes(routes, '/market?framework=1&version=11');
    await openPurchase();
    fireEvent.click(screen.getByText('我已阅读并同意服务条款'));
    await waitFor(() => expect(getButton(document.body, '确认创建').disabled).toBe(false));
    fireEvent.click(getButton(document.body, '确认创建'));
    expect(await screen.findByText('创建失败：GPU 资源不足')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/market');
    fireEvent.click(getButton(document.body, '确认创建'));
    const purchases = () => requests.filter((r) => r.path === '/api/cloud-products/1/purchase');
    await waitFor(() => expect(purchases()).toHaveLength(2));
    const [first, second] = purchases();
    expect(first?.headers['Idempotency-Key']).not.toBe(second?.headers['Idempotency-Key']);
  });

  it('a purchase says the instance is being created and goes to 我的容器 to follow it', async () => {
    marketServer({ body: { container_id: 'c1', status: 'creating' } });
    const { router } = renderRoutes(routes, '/market?framework=PyTorch&version=2.1');
    await openPurchase();
    fireEvent.click(screen.getByText('我已阅读并同意服务条款'));
    await waitFor(() => expect(getButton(document.body, '确认创建').disabled).toBe(false));
    fireEvent.click(getButton(document.body, '确认创建'));
    expect(await screen.findByText('实例已创建，正在拉取镜像并启动，进度见我的容器')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
  });

  it('puts the servers that hold the chosen image first, marked 秒级启动, and says so in the dialog', async () => {
    fakeServer({
      'GET /api/cloud-products/regions': () => ({ body: ['华东一区'] }),
      'GET /api/cloud-products/gpu-types': () => ({ body: ['RTX 4090'] }),
      'GET /api/cloud-products': () => ({
        body: {
          items: [
            product({ id: 1, name: 'cold', warm_version_ids: [] }),
            product({ id: 3, name: 'warm', warm_version_ids: [11] }),
          ],
          total: 2,
        },
      }),
      'GET /api/frameworks': () => ({ body: [{ id: 1, name: 'PyTorch' }] }),
      'GET /api/frameworks/1/versions': () => ({
        body: [{ id: 11, version: '2.1', cuda_version: '12.1', system_type: 'ubuntu', ports: { ssh: 22 } }],
      }),
      'GET /api/cloud-products/3/port': () => ({ body: [] }),
      'GET /api/containers': () => ({ body: { items: [], total: 0 } }),
    });
    renderRoutes(routes, '/market?framework=PyTorch&version=2.1');
    await screen.findByTestId('buy-3');
    await waitFor(() =>
      expect(within(screen.getAllByRole('row')[1] as HTMLElement).queryByText('warm')).toBeTruthy(),
    );
    expect(within(screen.getAllByRole('row')[1] as HTMLElement).getByText('秒级启动')).toBeTruthy();
    expect(within(screen.getAllByRole('row')[2] as HTMLElement).queryByText('秒级启动')).toBeNull();
    fireEvent.click(screen.getByTestId('buy-3'));
    await screen.findByText('创建实例');
    await waitFor(() =>
      expect(
        [...document.querySelectorAll('.ant-select-selection-item')].map((e) => e.textContent),
      ).toContain('2.1（CUDA 12.1） · 已缓存，秒级启动'),
    );
  });
});
