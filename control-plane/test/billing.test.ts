import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceReply,
  billingRecordListReply,
  orderListReply,
  statisticsReply,
} from '../src/modules/billing/contract.js';
import type { RunningControlPlane } from '../src/platform.js';
import { startTestAgent, type TestAgent } from './agents.js';
import { expectServed } from './contract.js';
import { ADMIN, ApiClient, outboxMessage, startTestControlPlane } from './harness.js';
import { adjustBalance, balanceAndLedger, grantCoupon } from './money.js';
import { addNodeWithProduct, type MarketFixture, purchaseBody } from './purchase.js';

let cp: RunningControlPlane;
let agent: TestAgent;
let market: MarketFixture;
let slot = 1;
const system = { id: 0, username: 'admin', nickname: null, isAdmin: true };

beforeAll(async () => {
  // Settlements are run by the tests (settle(slot)); stop and release jobs go through pg-boss.
  cp = await startTestControlPlane({ meteringIntervalMs: 3_600_000 });
  agent = await startTestAgent();
  market = await addNodeWithProduct(cp, agent, 'money-node');
});
afterAll(async () => {
  const rows = await cp.knex('containers').whereNot('status', 'deleted').select('id');
  for (const row of rows)
    await cp.services.containers.destroy(system, row.id, { admin: true }).catch(() => {});
  await cp?.close();
  await agent?.close();
});

async function user(name: string): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  return api;
}

const settle = () => cp.jobs.settlement?.settle(slot++) ?? Promise.resolve(false);
const balance = async (api: ApiClient) =>
  (await api.request<{ balance: number }>('GET', '/api/billing/balance')).body.balance;
async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 250));
  }
}
const status = async (id: string) =>
  (await cp.knex('containers').where({ id }).first('status')).status as string;
const DAILY = { billing_type: 'daily', total_price: 45.37 };

describe('money around containers', () => {
  it('a new user starts with the 20 yuan trial credit, booked in the ledger', async () => {
    const api = await user('newbie');
    const balanceReplied = await api.request('GET', '/api/billing/balance');
    expect(balanceReplied).toMatchObject({ body: { balance: 20, alert_threshold: 100 } });
    expectServed(balanceReply, balanceReplied.body);
    const stats = await api.request('GET', '/api/billing/statistics');
    expect(stats.body).toEqual({ total_expense: 0, total_recharge: 0, available_coupons: 0 });
    expectServed(statisticsReply, stats.body);
    const records = await api.request<{
      items: { type: string; amount: number; description: string; payment_method: string }[];
    }>('GET', '/api/billing/billing-records');
    expectServed(billingRecordListReply, records.body);
    expect(records.body.items).toEqual([
      expect.objectContaining({
        type: 'recharge',
        amount: 20,
        description: '新用户注册赠送体验金',
        payment_method: 'system',
      }),
    ]);
  });

  it('of 50 parallel prepaid purchases against a balance that affords exactly 3, exactly 3 go through', async () => {
    const api = await user('rich');
    await adjustBalance(cp, 'rich', 126.11); // 146.11 = 3 × 45.37 + 10
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.request<{ container_id?: string; detail?: string }>(
          'POST',
          `/api/cloud-products/${market.productId}/purchase`,
          purchaseBody(market, { ...DAILY, instanceName: `p${i}` }),
        ),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(402);
      expect(r.body.detail).toBe('余额不足，请先充值');
    }
    expect(await balance(api)).toBe(10);
    expect(await balanceAndLedger(cp, 'rich')).toEqual({ balanceFen: 1000, ledgerFen: 1000 });
    expect(await cp.knex('gpu_allocations').where({ node_id: market.nodeId })).toHaveLength(3);
    const orders = await api.request<{
      items: { status: string; amount: number; billing_method: string }[];
      total: number;
    }>('GET', '/api/orders/container-orders?skip=0&limit=10');
    expect(orders.body.total).toBe(3);
    expectServed(orderListReply, orders.body);
    expect(
      orders.body.items.every(
        (o) => o.status === 'paid' && o.amount === 45.37 && o.billing_method === 'daily',
      ),
    ).toBe(true);
    const list = await api.request<{ items: { end_time: string | null }[] }>('GET', '/api/containers');
    for (const c of list.body.items)
      expect(new Date(c.end_time ?? 0).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    for (const r of ok) await api.request('DELETE', `/api/containers/${r.body.container_id}`);
  });

  it('an hourly purchase or start needs a balance covering one hour', async () => {
    const api = await user('poor');
    await adjustBalance(cp, 'poor', -19);
    const res = await api.request<{ detail: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    expect(res.status).toBe(402);
    expect(res.body.detail).toBe('余额不足，账户余额需至少可支付1小时费用');
    expect(
      await cp
        .knex('containers')
        .join('users', 'users.id', 'containers.user_id')
        .where('users.username', 'poor'),
    ).toHaveLength(0);
  });

  it('meters a running hourly container per second, stops it at zero and warns on the way', async () => {
    const api = await user('meter1');
    const bought = await api.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market),
    );
    const id = bought.body.container_id;
    // The meter opens as the node reports it running, a moment after the purchase answered.
    await expect
      .poll(() => cp.knex('container_meters').where({ container_id: id }).first(), { timeout: 30_000 })
      .toBeDefined();
    const meter = await cp.knex('container_meters').where({ container_id: id }).first();
    expect(meter).toMatchObject({ rate_fen_per_hour: 199, charged_fen: 0 });
    expect(meter.running_since).not.toBeNull();
    // One hour of running time, as if the container had started an hour ago.
    await cp
      .knex('container_meters')
      .where({ id: meter.id })
      .update({ running_since: new Date(Date.now() - 3_600_000) });
    await settle();
    expect(await balance(api)).toBe(18.01);
    const order = (
      await api.request<{ items: { status: string; amount: number; usage_duration: number }[] }>(
        'GET',
        '/api/orders?status=running',
      )
    ).body.items[0];
    expect(order).toMatchObject({ status: 'running', amount: 1.99 });
    expect(order?.usage_duration).toBeCloseTo(1, 1);
    expect((await api.request<{ total_cost: number }>('GET', `/api/containers/${id}`)).body.total_cost).toBe(
      1.99,
    );
    // Below the default alert threshold (100): one warning.
    expect((await outboxMessage(cp.url, 'meter1@example.com')).subject).toContain('余额不足提醒');

    // Ten more hours: the balance runs out, the container is stopped by the job queue.
    await cp
      .knex('container_meters')
      .where({ id: meter.id })
      .update({ running_since: new Date(Date.now() - 10 * 3_600_000) });
    await settle();
    expect(await balance(api)).toBe(-1.89);
    expect(
      await until(
        () => status(id),
        (s) => s === 'stopped',
      ),
    ).toBe('stopped');
    const notice = await until(
      () => outboxMessage(cp.url, 'meter1@example.com'),
      (m) => m.subject.includes('余额已用尽'),
    );
    expect(notice.body).toContain('已停止');
    const closed = await cp.knex('container_meters').where({ id: meter.id }).first();
    expect(closed.running_since).toBeNull();
    const start = await api.request<{ detail: string }>('POST', `/api/containers/${id}/start`);
    expect(start.status).toBe(402);
    expect(await balanceAndLedger(cp, 'meter1')).toEqual({ balanceFen: -189, ledgerFen: -189 });
  });

  it('bills 无卡模式 at the no-GPU price', async () => {
    const api = await user('nogpu1');
    await cp.knex('cloud_products').where({ id: market.productId }).update({ no_gpu_price_fen: 10 });
    const id = (
      await api.request<{ container_id: string }>(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market),
      )
    ).body.container_id;
    // The purchase answers at once; the node makes the container after.
    await until(
      () => status(id),
      (s) => s === 'running',
    );
    expect((await api.request('POST', `/api/containers/${id}/stop`)).status).toBe(200);
    const started = await api.request<{ no_gpu: boolean }>('POST', `/api/containers/${id}/start`, {
      no_gpu: true,
    });
    expect(started.body.no_gpu, JSON.stringify(started.body)).toBe(true);
    const open = await cp
      .knex('container_meters')
      .where({ container_id: id })
      .whereNotNull('running_since')
      .first();
    expect(open.rate_fen_per_hour).toBe(10);
    await api.request('DELETE', `/api/containers/${id}`);
    expect(
      await cp.knex('container_meters').where({ container_id: id }).whereNotNull('running_since'),
    ).toHaveLength(0);
    const order = await cp.knex('container_orders').where({ container_id: id }).first();
    expect(order.status).toBe('completed');
  });

  it('stops a prepaid container at its end time and renews it from the container list', async () => {
    const api = await user('prepaid1');
    await adjustBalance(cp, 'prepaid1', 80);
    const id = (
      await api.request<{ container_id: string }>(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market, DAILY),
      )
    ).body.container_id;
    expect(await balance(api)).toBe(54.63);
    await cp
      .knex('containers')
      .where({ id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await settle();
    expect(
      await until(
        () => status(id),
        (s) => s === 'stopped',
      ),
    ).toBe('stopped');
    const refused = await api.request<{ detail: string }>('POST', `/api/containers/${id}/start`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('实例已到期，请续费后再启动');
    const renewed = await api.request<{ status: string; amount: number }>(
      'POST',
      `/api/containers/${id}/renew`,
      {
        duration: 1,
        payment_method: 'balance',
      },
    );
    expect(renewed.body).toMatchObject({ status: 'paid', amount: 45.37 });
    expect(await balance(api)).toBe(9.26);
    const c = await api.request<{ end_time: string }>('GET', `/api/containers/${id}`);
    expect(new Date(c.body.end_time).getTime()).toBeGreaterThan(Date.now() + 23.9 * 3600_000);
    const started = await api.request<{ status: string }>('POST', `/api/containers/${id}/start`);
    expect(started.body.status, JSON.stringify(started.body)).toBe('running');
    const short = await api.request<{ detail: string }>('POST', `/api/containers/${id}/renew`, {
      duration: 1,
      payment_method: 'balance',
    });
    expect(short.status).toBe(402);
    const orders = await api.request<{ items: { order_type: string }[] }>(
      'GET',
      '/api/orders/container-orders?skip=0&limit=10',
    );
    expect(orders.body.items.map((o) => o.order_type)).toEqual(['renewal', 'purchase']);
    await api.request('DELETE', `/api/containers/${id}`);
  });

  it('releases an hourly container 3 days after shutdown, warning the day before', async () => {
    const api = await user('release1');
    const id = (
      await api.request<{ container_id: string }>(
        'POST',
        `/api/cloud-products/${market.productId}/purchase`,
        purchaseBody(market),
      )
    ).body.container_id;
    await api.request('POST', `/api/containers/${id}/stop`);
    await cp
      .knex('containers')
      .where({ id })
      .update({ stopped_at: new Date(Date.now() - 2.5 * 86_400_000) });
    await settle();
    expect((await outboxMessage(cp.url, 'release1@example.com')).subject).toContain('实例即将释放');
    expect(await status(id)).toBe('stopped');
    await cp
      .knex('containers')
      .where({ id })
      .update({ stopped_at: new Date(Date.now() - 3 * 86_400_000 - 60_000) });
    await settle();
    expect(
      await until(
        () => status(id),
        (s) => s === 'deleted',
      ),
    ).toBe('deleted');
    expect(await cp.knex('port_allocations').where({ container_id: id })).toHaveLength(0);
    const released = await until(
      () => outboxMessage(cp.url, 'release1@example.com'),
      (m) => m.subject.includes('实例已释放'),
    );
    expect(released.body).toContain('已释放');
  });

  it('applies the coupon marked with use at the next purchase reaching its minimum', async () => {
    const api = await user('couponbuyer');
    await adjustBalance(cp, 'couponbuyer', 30);
    const [coupon] = await grantCoupon(cp, ['couponbuyer'], { name: '新购立减', amount: 10, minAmount: 40 });
    await api.request('POST', `/api/coupons/${coupon}/use`);
    // Without the coupon 50 yuan would do too; with it, 10 yuan of the 45.37 come from the coupon.
    const bought = await api.request<{ container_id: string }>(
      'POST',
      `/api/cloud-products/${market.productId}/purchase`,
      purchaseBody(market, DAILY),
    );
    expect(bought.status).toBe(201);
    expect(await balance(api)).toBe(14.63);
    const order = (
      await api.request<{ items: { discount: number; amount: number }[] }>(
        'GET',
        '/api/orders/container-orders',
      )
    ).body.items[0];
    expect(order).toMatchObject({ amount: 45.37, discount: 10 });
    expect(
      (await api.request<{ items: { status: string }[] }>('GET', '/api/coupons?status=used')).body.items,
    ).toHaveLength(1);
    await api.request('DELETE', `/api/containers/${bought.body.container_id}`);
  });

  it('admins adjust balances with a reason and see payments', async () => {
    const api = await user('adjusted');
    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const me = await cp.knex('users').where({ username: 'adjusted' }).first('id');
    const bad = await admin.request<{ detail: string }>('POST', `/api/admin/users/${me.id}/balance`, {
      amount: -100,
      reason: '扣款',
    });
    expect(bad.status).toBe(409);
    // A user that does not exist: 404, and no account row or ledger row is made for it.
    const missing = await admin.request<{ detail: string }>('POST', '/api/admin/users/987654/balance', {
      amount: 5,
      reason: '补偿',
    });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('用户不存在');
    expect(await cp.knex('billing_accounts').where({ user_id: 987654 })).toEqual([]);
    const ok = await admin.request<{ balance: number }>('POST', `/api/admin/users/${me.id}/balance`, {
      amount: 5.5,
      reason: '补偿',
    });
    expect(ok.body.balance).toBe(25.5);
    const row = await cp.knex('ledger_entries').where({ user_id: me.id, kind: 'adjustment' }).first();
    expect(row).toMatchObject({
      amount_fen: 550,
      admin_id: expect.any(Number),
      description: '管理员调整（admin）：补偿',
    });
    await api.request('POST', '/api/billing/wechat/create', { amount: 12, payment_method: 'wechat' });
    const payments = await admin.request<{ items: { username: string; status: string; amount: number }[] }>(
      'GET',
      '/api/admin/payments?username=adjusted',
    );
    expect(payments.body.items).toEqual([
      expect.objectContaining({ username: 'adjusted', status: 'pending', amount: 12 }),
    ]);
  });
});
