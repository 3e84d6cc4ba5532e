import type { AdminPayment, Coupon } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import {
  dialog,
  fakeServer,
  getButton,
  type RecordedRequest,
  renderRoutes,
  selectInput,
} from '../../../test/render';

const payment: AdminPayment = {
  id: 7,
  out_trade_no: 'GC20261121000007',
  amount: 100,
  provider: 'sandbox',
  status: 'success',
  trade_state: 'SUCCESS',
  transaction_id: '4200000001',
  description: '账户充值',
  order_id: null,
  create_time: '2026-11-21T08:00:00.000Z',
  paid_at: '2026-11-21T08:01:00.000Z',
  username: 'alice',
};
const coupon: Coupon = {
  id: 3,
  name: '新用户礼券',
  amount: 10,
  minAmount: 50,
  expireDate: '2026-12-31T15:59:59.000Z',
  status: 'unused',
  selected: false,
  used_at: null,
  used_for: null,
  username: 'alice',
};
const calls = (requests: RecordedRequest[], method: string, path: string) =>
  requests.filter((r) => r.method === method && r.path === path);
const lastQuery = (requests: RecordedRequest[], path: string) =>
  calls(requests, 'GET', path).at(-1)?.search.toString();

beforeEach(() => {
  setSession('t', { username: 'root', nickname: '', isAdmin: true });
});

describe('admin payments', { timeout: 60_000 }, () => {
  it('lists payments; a username search or a status goes back to page 1', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/payments': () => ({ body: { items: [payment], total: 45 } }),
    });
    renderRoutes(routes, '/admin/payments');
    const row = await screen.findByTestId('payment-row-7');
    expect(within(row).getByText('¥100.00')).toBeTruthy();
    expect(within(row).getByText('已支付')).toBeTruthy();
    expect(within(row).getByText('微信支付（沙箱）')).toBeTruthy();
    expect(lastQuery(requests, '/api/admin/payments')).toBe('page=1&size=20');

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lastQuery(requests, '/api/admin/payments')).toBe('page=3&size=20'));
    fireEvent.change(screen.getByPlaceholderText('用户名'), { target: { value: ' alice ' } });
    fireEvent.keyDown(screen.getByPlaceholderText('用户名'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(lastQuery(requests, '/api/admin/payments')).toBe('page=1&size=20&username=alice'),
    );

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() =>
      expect(lastQuery(requests, '/api/admin/payments')).toBe('page=2&size=20&username=alice'),
    );
    fireEvent.mouseDown(
      selectInput(document.body, '支付状态').closest('.ant-select-selector') as HTMLElement,
    );
    fireEvent.click(await screen.findByTitle('待支付'));
    await waitFor(() =>
      expect(lastQuery(requests, '/api/admin/payments')).toBe('page=1&size=20&status=pending&username=alice'),
    );
  });

  it('adjusts a balance: finds the user by exact name, books the amount with the reason', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/payments': () => ({ body: { items: [], total: 0 } }),
      'GET /api/admin/users': () => ({
        body: {
          items: [
            { id: 11, username: 'alice2' },
            { id: 12, username: 'alice' },
          ],
          total: 2,
        },
      }),
      'POST /api/admin/users/12/balance': () => ({ body: { balance: 150 } }),
    });
    renderRoutes(routes, '/admin/payments');
    await screen.findByText('暂无支付记录');
    fireEvent.click(getButton(document.body, '调整余额'));
    const modal = dialog();
    fireEvent.change(within(modal).getByLabelText('调整金额'), { target: { value: '0' } });
    fireEvent.click(getButton(modal, '确定'));
    expect(await within(modal).findByText('调整金额不能为0')).toBeTruthy();
    expect(within(modal).getByText('请输入用户名')).toBeTruthy();
    expect(within(modal).getByText('请输入调整原因')).toBeTruthy();

    fireEvent.change(within(modal).getByLabelText('用户名'), { target: { value: 'alice' } });
    fireEvent.change(within(modal).getByLabelText('调整金额'), { target: { value: '50' } });
    fireEvent.change(within(modal).getByLabelText('原因'), { target: { value: '补偿故障时长' } });
    fireEvent.click(getButton(modal, '确定'));
    expect(await screen.findByText('调整成功，当前余额 ¥150.00')).toBeTruthy();
    expect(calls(requests, 'POST', '/api/admin/users/12/balance')[0]?.body).toEqual({
      amount: 50,
      reason: '补偿故障时长',
    });
    expect(calls(requests, 'POST', '/api/admin/users/11/balance')).toHaveLength(0);
  });
});

describe('admin coupons', { timeout: 60_000 }, () => {
  it('grants a coupon to the named users and revokes an unused one after confirmation', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/coupons': () => ({ body: { items: [coupon], total: 1 } }),
      'POST /api/admin/coupons': () => ({ status: 201, body: { created: 2 } }),
      'DELETE /api/admin/coupons/3': () => ({ body: { ok: true } }),
    });
    renderRoutes(routes, '/admin/coupons');
    const row = await screen.findByText('新用户礼券');
    expect(row).toBeTruthy();
    expect(screen.getByText('¥10.00')).toBeTruthy();
    expect(screen.getByText('¥50.00')).toBeTruthy();

    fireEvent.click(getButton(document.body, '发放卡券'));
    const modal = dialog();
    fireEvent.click(getButton(modal, '发放'));
    expect(await within(modal).findByText('请输入卡券名称')).toBeTruthy();
    expect(within(modal).getByText('请至少选择一个用户')).toBeTruthy();
    fireEvent.change(within(modal).getByLabelText('卡券名称'), { target: { value: '故障补偿券' } });
    fireEvent.change(within(modal).getByLabelText('面额'), { target: { value: '20' } });
    const users = selectInput(modal, '用户名');
    fireEvent.change(users, { target: { value: 'alice' } });
    fireEvent.keyDown(users, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.change(users, { target: { value: 'bob' } });
    fireEvent.keyDown(users, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(getButton(modal, '发放'));
    expect(await screen.findByText('已发放 2 张卡券')).toBeTruthy();
    const grant = calls(requests, 'POST', '/api/admin/coupons')[0]?.body as Record<string, unknown>;
    expect(grant).toMatchObject({
      name: '故障补偿券',
      amount: 20,
      minAmount: 0,
      usernames: ['alice', 'bob'],
    });
    expect(new Date(String(grant.expireDate)).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    fireEvent.click(getButton(document.body, '删除'));
    expect(await screen.findByText('确定要删除这张未使用的卡券吗？')).toBeTruthy();
    fireEvent.click(getButton(document.querySelector('.ant-popover') as HTMLElement, '确定'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(calls(requests, 'DELETE', '/api/admin/coupons/3')).toHaveLength(1);
  });
});
