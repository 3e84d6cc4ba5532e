import type { Order, Transaction } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, type RecordedRequest, renderRoutes } from '../../../test/render';

const order: Order = {
  id: 5,
  order_id: 'O202611210005',
  container_id: 'c-abc123',
  create_time: '2026-11-21T08:00:00.000Z',
  product_type: 'GPU 轻量实例',
  product_name: 'RTX 4090 单卡',
  order_type: 'purchase',
  billing_method: 'daily',
  unit_price: 1.99,
  duration: 1,
  usage_duration: 24,
  amount: 45.37,
  discount: 5,
  invoiced_amount: 0,
  invoiceable_amount: 45.37,
  status: 'running',
  container_server_name: 'local',
  container_gpu_type: 'RTX 4090',
  container_gpu_count: 1,
  container_region: '华东一区',
  start_time: '2026-11-21T08:00:00.000Z',
  end_time: '2026-11-22T08:00:00.000Z',
  paid_at: '2026-11-21T08:00:00.000Z',
};
const expense: Transaction = {
  id: 9,
  create_time: '2026-11-21T08:00:00.000Z',
  type: '支出',
  amount: 45.37,
  balance_after: 54.63,
  description: '购买实例 c-abc123',
  order_id: 'O202611210005',
};
const lastQuery = (requests: RecordedRequest[], path: string) =>
  requests
    .filter((r) => r.method === 'GET' && r.path === path)
    .at(-1)
    ?.search.toString();

beforeEach(() => {
  setSession('t', { username: 'alice', nickname: '', isAdmin: false });
});

describe('orders', { timeout: 60_000 }, () => {
  it('lists the container orders 10 a page (skip/limit) and shows one in the detail drawer', async () => {
    const { requests } = fakeServer({
      'GET /api/orders/container-orders': () => ({ body: { items: [order], total: 25 } }),
      'GET /api/orders/5': () => ({ body: order }),
    });
    renderRoutes(routes, '/user/orders');
    const row = await screen.findByTestId('order-row-5');
    expect(within(row).getByText('O202611210005')).toBeTruthy();
    expect(within(row).getByText('新购')).toBeTruthy();
    expect(within(row).getByText('24 小时')).toBeTruthy();
    expect(within(row).getByText('¥45.37')).toBeTruthy();
    expect(within(row).getByText('使用中')).toBeTruthy();
    expect(lastQuery(requests, '/api/orders/container-orders')).toBe('skip=0&limit=10');
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lastQuery(requests, '/api/orders/container-orders')).toBe('skip=20&limit=10'));

    fireEvent.click(getButton(row, '详情'));
    const drawer = await screen.findByRole('dialog', { name: '订单详情' });
    expect(await within(drawer).findByText('c-abc123')).toBeTruthy();
    expect(within(drawer).getByText('RTX 4090 × 1')).toBeTruthy();
    expect(within(drawer).getByText('¥1.99/卡/时')).toBeTruthy();
    expect(within(drawer).getByText('¥5.00')).toBeTruthy(); // 卡券抵扣
    expect(within(drawer).getByText('华东一区')).toBeTruthy();
  });

  it('says so when the list cannot be loaded', async () => {
    fakeServer({
      'GET /api/orders/container-orders': () => ({ status: 500, body: { detail: '服务器错误' } }),
    });
    renderRoutes(routes, '/orders');
    expect(await screen.findByText('获取订单列表失败')).toBeTruthy();
  });
});

describe('transactions', { timeout: 60_000 }, () => {
  it('filters by income or expense from page 1, and signs the amounts', async () => {
    const { requests } = fakeServer({
      'GET /api/transactions': () => ({ body: { items: [expense], total: 30 } }),
    });
    renderRoutes(routes, '/transactions');
    const row = await screen.findByTestId('transaction-row-9');
    expect(within(row).getByText('-¥45.37')).toBeTruthy();
    expect(within(row).getByText('¥54.63')).toBeTruthy();
    expect(lastQuery(requests, '/api/transactions')).toBe('page=1&page_size=10&type=all');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() =>
      expect(lastQuery(requests, '/api/transactions')).toBe('page=2&page_size=10&type=all'),
    );
    fireEvent.click(screen.getByText('支出', { selector: '.ant-segmented-item-label' }));
    await waitFor(() =>
      expect(lastQuery(requests, '/api/transactions')).toBe('page=1&page_size=10&type=expense'),
    );
  });

  it('says so when the list cannot be loaded', async () => {
    fakeServer({ 'GET /api/transactions': () => ({ status: 500, body: { detail: '服务器错误' } }) });
    renderRoutes(routes, '/transactions');
    expect(await screen.findByText('获取交易记录失败')).toBeTruthy();
  });
});
