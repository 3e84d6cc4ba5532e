import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeContainer, fakeNode } from '../../../test/fake-containers.js';
import { ADMIN, ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { adjustBalance, balanceAndLedger, grantCoupon } from '../../../test/money.js';
import type { RunningControlPlane } from '../../platform.js';

let cp: RunningControlPlane;
let admin: ApiClient;
let nodeId: number;

beforeAll(async () => {
  cp = await startTestControlPlane({ billingJobs: false });
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
  nodeId = await fakeNode(cp);
});
afterAll(async () => {
  await cp?.close();
});

async function user(name: string): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  return api;
}
const balance = async (api: ApiClient) =>
  (await api.request<{ balance: number }>('GET', '/api/billing/balance')).body.balance;
type Created = { out_trade_no: string; code_url: string; provider: string };

/** A daily container of `username` (no agent: renewals only touch the database). */
async function prepaidContainer(username: string) {
  const u = await cp.knex('users').where({ username }).first('id');
  const id = await fakeContainer(cp, { userId: u.id, nodeId, priceFen: 199, billingType: 'daily' });
  await cp
    .knex('containers')
    .where({ id })
    .update({ expires_at: new Date(Date.now() + 3600_000) });
  return id;
}

describe('top-up through the sandbox payment page', () => {
  it('credits once after the sandbox page pays; the query answers SUCCESS', async () => {
    const api = await user('topup1');
    const created = await api.request<Created>('POST', '/api/billing/wechat/create', {
      amount: 100,
      payment_method: 'wechat',
      description: '账户充值',
    });
    expect(created.status).toBe(201);
    expect(created.body.provider).toBe('sandbox');
    expect(created.body.code_url).toBe(`/pay/sandbox/${created.body.out_trade_no}`);
    const no = created.body.out_trade_no;
    expect(
      (await api.request<{ trade_state: string }>('GET', `/api/billing/wechat/query?out_trade_no=${no}`)).body
        .trade_state,
    ).toBe('NOTPAY');
    // The sandbox page is the owner's only: anonymous 401, another user 403, nothing credited.
    const anonymous = await new ApiClient(cp.url).request('POST', `/api/billing/wechat/sandbox/${no}/pay`);
    expect(anonymous.status).toBe(401);
    expect((await new ApiClient(cp.url).request('GET', `/api/billing/wechat/sandbox/${no}`)).status).toBe(
      401,
    );
    const other = await user('topup1other');
    const foreign = await other.request<{ detail: string }>('POST', `/api/billing/wechat/sandbox/${no}/pay`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.detail).toBe('只能支付自己的订单');
    expect((await other.request('GET', `/api/billing/wechat/sandbox/${no}`)).status).toBe(403);
    expect(await balance(other)).toBe(20);
    const page = await api.request<{ amount: number }>('GET', `/api/billing/wechat/sandbox/${no}`);
    expect(page.body.amount).toBe(100);
    const paid = await api.request('POST', `/api/billing/wechat/sandbox/${no}/pay`);
    expect(paid.status).toBe(200);
    await api.request('POST', `/api/billing/wechat/sandbox/${no}/pay`);
    expect(
      (await api.request<{ trade_state: string }>('GET', `/api/billing/wechat/query?out_trade_no=${no}`)).body
        .trade_state,
    ).toBe('SUCCESS');
    expect(await balance(api)).toBe(120);
    expect((await api.request('GET', '/api/billing/statistics')).body).toEqual({
      total_expense: 0,
      total_recharge: 100,
      available_coupons: 0,
    });
  });

  it('closes a top-up whose QR code expired unpaid; a paid one is credited even without its notification', async () => {
    const api = await user('topup3');
    const unpaid = await api.request<Created>('POST', '/api/billing/wechat/create', {
      amount: 7,
      payment_method: 'wechat',
    });
    const paid = await api.request<Created>('POST', '/api/billing/wechat/create', {
      amount: 8,
      payment_method: 'wechat',
    });
    // The sandbox answers SUCCESS once its page paid; here the "notification" is the row itself.
    await cp
      .knex('payments')
      .where({ out_trade_no: paid.body.out_trade_no })
      .update({ trade_state: 'SUCCESS' });
    await cp
      .knex('payments')
      .whereIn('out_trade_no', [unpaid.body.out_trade_no, paid.body.out_trade_no])
      .update({ created_at: new Date(Date.now() - 3 * 3600_000) });
    await cp.services.billing.payments.settleStale();
    const rows = await cp
      .knex('payments')
      .whereIn('out_trade_no', [unpaid.body.out_trade_no, paid.body.out_trade_no])
      .orderBy('id');
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['closed', 'success']);
    expect(await balance(api)).toBe(28);
  });

  it('validates the amount and the alert threshold with the spec rules', async () => {
    const api = await user('topup2');
    for (const [amount, detail] of [
      [0.5, '充值金额最少为1元'],
      [1.234, '金额最多保留两位小数'],
    ] as const) {
      const res = await api.request<{ detail: string }>('POST', '/api/billing/wechat/create', {
        amount,
        payment_method: 'wechat',
      });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    expect(
      (await api.request<{ detail: string }>('POST', '/api/billing/alert-threshold', { threshold: -1 })).body
        .detail,
    ).toBe('告警阈值不能小于0');
    const set = await api.request<{ alert_threshold: number }>('POST', '/api/billing/alert-threshold', {
      threshold: 12.5,
    });
    expect(set.body.alert_threshold).toBe(12.5);
  });
});

describe('billing records', () => {
  it('lists expenses, recharges and pending items with filters, pages and pay-now', async () => {
    const api = await user('records1');
    const c = await prepaidContainer('records1');
    // A renewal paid by WeChat stays pending until the QR is paid.
    const renewal = await api.request<{ order_id: number; status: string; payment: Created }>(
      'POST',
      `/api/containers/${c}/renew`,
      {
        duration: 1,
        payment_method: 'wechat',
      },
    );
    expect(renewal.body.status).toBe('pending');
    await api.request('POST', '/api/billing/wechat/create', { amount: 5, payment_method: 'wechat' });
    type Rec = {
      id: string;
      type: string;
      status: string;
      amount: number;
      duration: number | null;
      order_id: number | null;
      source: string;
    };
    const all = await api.request<{ items: Rec[]; total: number }>(
      'GET',
      '/api/billing/billing-records?skip=0&limit=10',
    );
    expect(all.body.total).toBe(3);
    const pendingOrder = all.body.items.find((r) => r.source === 'order');
    expect(pendingOrder).toMatchObject({
      type: 'expense',
      status: 'pending',
      amount: -45.37,
      order_id: renewal.body.order_id,
    });
    expect(all.body.items.find((r) => r.source === 'payment')).toMatchObject({
      type: 'recharge',
      status: 'pending',
      amount: 5,
    });

    // Pay now from the balance: not enough (20 yuan) …
    const short = await api.request<{ detail: string }>('POST', `/api/orders/${renewal.body.order_id}/pay`, {
      payment_method: 'balance',
    });
    expect(short.status).toBe(402);
    // … so by WeChat: the money comes in and pays the order, through the same path as a callback.
    const pay = await api.request<{ payment: Created }>('POST', `/api/orders/${renewal.body.order_id}/pay`, {
      payment_method: 'wechat',
    });
    await api.request('POST', `/api/billing/wechat/sandbox/${pay.body.payment.out_trade_no}/pay`);
    const order = await api.request<{ status: string; end_time: string }>(
      'GET',
      `/api/orders/${renewal.body.order_id}`,
    );
    expect(order.body.status).toBe('paid');
    expect(new Date(order.body.end_time).getTime()).toBeGreaterThan(Date.now() + 24 * 3600_000);
    expect(await balance(api)).toBe(20);

    const expenses = await api.request<{ items: Rec[] }>('GET', '/api/billing/billing-records?type=expense');
    expect(expenses.body.items).toEqual([
      expect.objectContaining({ amount: -45.37, duration: 24, status: 'success', payment_method: 'balance' }),
    ]);
    const today = new Date();
    const tomorrow = new Date(Date.now() + 86_400_000);
    const ranged = await api.request<{ total: number }>(
      'GET',
      `/api/billing/billing-records?start_date=${tomorrow.toISOString()}&end_date=${new Date(tomorrow.getTime() + 1000).toISOString()}`,
    );
    expect(ranged.body.total).toBe(0);
    const page = await api.request<{ items: Rec[]; total: number }>(
      'GET',
      `/api/billing/billing-records?skip=0&limit=10&start_date=${new Date(today.getTime() - 60_000).toISOString()}`,
    );
    expect(page.body.total).toBeGreaterThanOrEqual(3);
    expect((await api.request('GET', '/api/billing/billing-records?limit=7')).status).toBe(400);

    const tx = await api.request<{ items: { type: string; amount: number; order_id: string | null }[] }>(
      'GET',
      '/api/transactions?page=1&page_size=10&type=expense',
    );
    expect(tx.body.items).toEqual([
      expect.objectContaining({ type: '支出', amount: 45.37, order_id: expect.stringMatching(/^O\d+/) }),
    ]);
    const income = await api.request<{ items: { type: string }[] }>(
      'GET',
      '/api/transactions?page=1&page_size=10&type=income',
    );
    expect(income.body.items.every((t) => t.type === '收入')).toBe(true);
    expect(await balanceAndLedger(cp, 'records1')).toEqual({ balanceFen: 2000, ledgerFen: 2000 });
  });
});

describe('invoices', () => {
  it('applies for an invoiceable order up to its paid amount, cancels, and admins issue a downloadable document', async () => {
    const api = await user('invoice1');
    await adjustBalance(cp, 'invoice1', 50);
    const c = await prepaidContainer('invoice1');
    const renewed = await api.request<{ order_id: number }>('POST', `/api/containers/${c}/renew`, {
      duration: 1,
      payment_method: 'balance',
    });
    const invoiceable = await api.request<{ items: { id: number; invoiceable_amount: number }[] }>(
      'GET',
      '/api/orders?status=invoiceable',
    );
    expect(invoiceable.body.items).toEqual([
      expect.objectContaining({ id: renewed.body.order_id, invoiceable_amount: 45.37 }),
    ]);
    const body = {
      order_id: renewed.body.order_id,
      title: '北京某某科技有限公司',
      tax_no: '91110000123456789X',
    };
    const tooMuch = await api.request<{ detail: string }>('POST', '/api/invoices', {
      ...body,
      amount: 45.38,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.detail).toBe('开票金额不能超过可开票金额 45.37 元');
    const badTax = await api.request<{ detail: string }>('POST', '/api/invoices', {
      ...body,
      tax_no: '123',
      amount: 1,
    });
    expect(badTax.body.detail).toBe('税号格式不正确（15-20位字母或数字）');
    const first = await api.request<{ id: number; status: string }>('POST', '/api/invoices', {
      ...body,
      amount: 40,
    });
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('pending');
    const second = await api.request<{ detail: string }>('POST', '/api/invoices', { ...body, amount: 6 });
    expect(second.status).toBe(400);
    const cancelled = await api.request<{ status: string }>('PUT', `/api/invoices/${first.body.id}`, {
      status: 'cancelled',
    });
    expect(cancelled.body.status).toBe('cancelled');
    const again = await api.request<{ id: number }>('POST', '/api/invoices', { ...body, amount: 45.37 });
    expect((await api.request('GET', `/api/invoices/${again.body.id}/download`)).status).toBe(409);
    const pendingList = await admin.request<{ items: { id: number; username: string }[] }>(
      'GET',
      '/api/admin/invoices?status=pending',
    );
    expect(pendingList.body.items.some((i) => i.id === again.body.id && i.username === 'invoice1')).toBe(
      true,
    );
    const issued = await admin.request<{ status: string }>(
      'POST',
      `/api/admin/invoices/${again.body.id}/issue`,
    );
    expect(issued.body.status).toBe('issued');
    expect(
      (
        await api.request<{ detail: string }>('PUT', `/api/invoices/${again.body.id}`, {
          status: 'cancelled',
        })
      ).status,
    ).toBe(409);
    const doc = await fetch(`${cp.url}/api/invoices/${again.body.id}/download`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    expect(doc.headers.get('content-type')).toContain('text/html');
    expect(doc.headers.get('content-disposition')).toContain('attachment');
    const html = await doc.text();
    expect(html).toContain('北京某某科技有限公司');
    expect(html).toContain('45.37');
    const list = await api.request<{ items: { status: string }[]; total: number }>(
      'GET',
      '/api/invoices?page=1&page_size=10',
    );
    expect(list.body.items.map((i) => i.status)).toEqual(['issued', 'cancelled']);
  });
});

describe('coupons', () => {
  it('admins grant coupons; users list them by status and use one at the next top-up reaching its minimum', async () => {
    const api = await user('coupon1');
    await grantCoupon(cp, ['coupon1'], { name: '充值立减', amount: 5, minAmount: 50 });
    // Granted for a future date (an admin cannot grant an expired coupon), then its date passes.
    await grantCoupon(cp, ['coupon1'], { name: '已过期券', amount: 5, minAmount: 0 });
    await cp
      .knex('coupons')
      .where({ name: '已过期券' })
      .whereIn('user_id', cp.knex('users').where({ username: 'coupon1' }).select('id'))
      .update({ expires_at: new Date(Date.now() - 1000) });
    const unused = await api.request<{
      items: { id: number; name: string; status: string; minAmount: number }[];
      total: number;
    }>('GET', '/api/coupons?page=1&page_size=9&status=unused');
    expect(unused.body.total).toBe(1);
    expect((await api.request<{ total: number }>('GET', '/api/coupons?status=expired')).body.total).toBe(1);
    expect((await api.request('GET', '/api/coupons?page_size=10')).status).toBe(400);
    expect((await api.request('GET', '/api/billing/statistics')).body).toMatchObject({
      available_coupons: 1,
    });
    const couponId = unused.body.items[0]?.id as number;
    const used = await api.request<{ selected: boolean }>('POST', `/api/coupons/${couponId}/use`);
    expect(used.body.selected).toBe(true);

    // A top-up below the minimum leaves the coupon for later; one reaching it applies it.
    const pay = async (amount: number) => {
      const p = await api.request<Created>('POST', '/api/billing/wechat/create', {
        amount,
        payment_method: 'wechat',
      });
      await api.request('POST', `/api/billing/wechat/sandbox/${p.body.out_trade_no}/pay`);
    };
    await pay(10);
    expect(await balance(api)).toBe(30);
    await pay(50);
    expect(await balance(api)).toBe(85);
    const after = await api.request<{ items: { status: string; used_for: string }[] }>(
      'GET',
      '/api/coupons?status=used',
    );
    expect(after.body.items).toEqual([
      expect.objectContaining({ status: 'used', used_for: expect.stringMatching(/^充值 /) }),
    ]);
    expect((await api.request<{ detail: string }>('POST', `/api/coupons/${couponId}/use`)).body.detail).toBe(
      '该卡券已使用',
    );
    const adminList = await admin.request<{ items: { username: string }[] }>(
      'GET',
      '/api/admin/coupons?username=coupon1',
    );
    expect(adminList.body.items).toHaveLength(2);
    const unknown = await admin.request<{ detail: string }>('POST', '/api/admin/coupons', {
      name: 'x',
      amount: 1,
      minAmount: 0,
      expireDate: new Date(Date.now() + 86_400_000).toISOString(),
      usernames: ['nobody_here'],
    });
    expect(unknown.body.detail).toBe('用户不存在：nobody_here');
    expect(await balanceAndLedger(cp, 'coupon1')).toEqual({ balanceFen: 8500, ledgerFen: 8500 });
  });
});
