import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { startWechatPayStandIn, wechatPayTestKeys } from '../../../test/stand-ins/wechat-pay.js';
import type { RunningControlPlane } from '../../platform.js';

const { keys, settings } = wechatPayTestKeys();
let standIn: Awaited<ReturnType<typeof startWechatPayStandIn>>;
let cp: RunningControlPlane;

beforeAll(async () => {
  standIn = await startWechatPayStandIn(keys);
  cp = await startTestControlPlane({
    billingJobs: false,
    wechatPay: settings(standIn.url),
  });
});
afterAll(async () => {
  await cp?.close();
  await standIn?.close();
});

type Created = { out_trade_no: string; code_url: string; provider: string };

async function balance(api: ApiClient): Promise<number> {
  return (await api.request<{ balance: number }>('GET', '/api/billing/balance')).body.balance;
}

async function notify(n: { body: string; headers: Record<string, string> }) {
  const res = await fetch(`${cp.url}/api/billing/wechat/notify`, {
    method: 'POST',
    headers: n.headers,
    body: n.body,
  });
  return { status: res.status, text: await res.text() };
}

describe('WeChat Pay API v3 (Native) against a stand-in speaking the protocol', () => {
  it('creates a signed Native order, polls NOTPAY as pending, and credits once from a verified notification', async () => {
    const api = new ApiClient(cp.url);
    await api.register('payer1');
    expect(await balance(api)).toBe(20);
    const created = await api.request<Created>('POST', '/api/billing/wechat/create', {
      amount: 100.5,
      payment_method: 'wechat',
      description: '账户充值',
    });
    expect(created.status).toBe(201);
    expect(created.body.code_url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(created.body.provider).toBe('wechat');
    const no = created.body.out_trade_no;
    expect(standIn.orders.get(no)).toMatchObject({
      total: 10050,
      notifyUrl: 'https://gpu.example.com/api/billing/wechat/notify',
    });
    expect(standIn.requests.every((r) => r.authorized)).toBe(true);

    const pending = await api.request<{ trade_state: string }>(
      'GET',
      `/api/billing/wechat/query?out_trade_no=${no}`,
    );
    expect(pending.body.trade_state).toBe('NOTPAY');

    standIn.pay(no);
    const n = standIn.notification(no);
    expect((await notify(n)).status).toBe(204);
    expect(await balance(api)).toBe(120.5);
    // WeChat retries a notification it considers undelivered: a replay credits nothing more.
    expect((await notify(n)).status).toBe(204);
    expect((await notify(standIn.notification(no))).status).toBe(204);
    expect(await balance(api)).toBe(120.5);
    const done = await api.request<{ trade_state: string }>(
      'GET',
      `/api/billing/wechat/query?out_trade_no=${no}`,
    );
    expect(done.body.trade_state).toBe('SUCCESS');
    expect(await balance(api)).toBe(120.5);
    const rows = await cp
      .knex('ledger_entries')
      .where({ kind: 'recharge' })
      .whereIn('payment_id', cp.knex('payments').where({ out_trade_no: no }).select('id'));
    expect(rows).toHaveLength(1);
  });

  it('refuses notifications with a bad signature, a foreign serial or a tampered body, and credits nothing', async () => {
    const api = new ApiClient(cp.url);
    await api.register('payer2');
    const { body } = await api.request<Created>('POST', '/api/billing/wechat/create', {
      amount: 10,
      payment_method: 'wechat',
    });
    standIn.pay(body.out_trade_no);
    const good = standIn.notification(body.out_trade_no);
    const tampered = standIn.notification(body.out_trade_no, (b) => b.replace('支付成功', '支付成功 '));
    expect((await notify(tampered)).status).toBe(401);
    expect(
      (await notify({ ...good, headers: { ...good.headers, 'wechatpay-serial': 'OTHER' } })).status,
    ).toBe(401);
    const forged = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { createSign } = await import('node:crypto');
    const h = good.headers;
    const forgedSig = createSign('RSA-SHA256')
      .update(`${h['wechatpay-timestamp']}\n${h['wechatpay-nonce']}\n${good.body}\n`)
      .sign(forged.privateKey, 'base64');
    const res = await notify({ body: good.body, headers: { ...h, 'wechatpay-signature': forgedSig } });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ code: 'FAIL', message: '签名验证失败' });
    expect(await balance(api)).toBe(20);
    // Polling finds the payment all the same (the query path credits through the same code).
    const q = await api.request<{ trade_state: string }>(
      'GET',
      `/api/billing/wechat/query?out_trade_no=${body.out_trade_no}`,
    );
    expect(q.body.trade_state).toBe('SUCCESS');
    expect(await balance(api)).toBe(30);
    expect((await notify(good)).status).toBe(204);
    expect(await balance(api)).toBe(30);
  });

  it('closes the order at WeChat when the user cancels; a foreign payment is 404', async () => {
    const api = new ApiClient(cp.url);
    await api.register('payer3');
    const { body } = await api.request<Created>('POST', '/api/billing/wechat/create', {
      amount: 1,
      payment_method: 'wechat',
    });
    const other = new ApiClient(cp.url);
    await other.register('payer3b');
    expect(
      (await other.request('GET', `/api/billing/wechat/query?out_trade_no=${body.out_trade_no}`)).status,
    ).toBe(404);
    const cancelled = await api.request<{ trade_state: string }>('POST', '/api/billing/wechat/cancel', {
      out_trade_no: body.out_trade_no,
    });
    expect(cancelled.body.trade_state).toBe('CLOSED');
    expect(standIn.orders.get(body.out_trade_no)?.state).toBe('CLOSED');
    const records = await api.request<{ items: { status: string; type: string }[] }>(
      'GET',
      '/api/billing/billing-records?type=recharge',
    );
    expect(records.body.items[0]).toMatchObject({ status: 'failed', type: 'recharge' });
  });

  it('answers 503 with the spec text when WeChat Pay refuses the request', async () => {
    const api = new ApiClient(cp.url);
    await api.register('payer4');
    const bad = await startTestControlPlane({
      billingJobs: false,
      wechatPay: settings(standIn.url, { serialNo: 'WRONG-SERIAL' }),
    });
    try {
      const client = new ApiClient(bad.url);
      await client.register('payer5');
      const res = await client.request<{ detail: string }>('POST', '/api/billing/wechat/create', {
        amount: 5,
        payment_method: 'wechat',
      });
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe('微信支付服务暂时不可用，请稍后再试或选择其他支付方式');
    } finally {
      await bad.close();
    }
  });
});
