import { createCipheriv, createSign, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { startWechatPayStandIn, wechatPayTestKeys } from '../../../test/stand-ins/wechat-pay.js';
import type { RunningControlPlane } from '../../platform.js';

// WeChat Pay retries every answer but a 2xx for a day: a notification we refuse for a reason of
// its own (does not decrypt, unknown order, wrong amount) answers 4xx {code: FAIL} and credits
// nothing; and a payment the user is still paying (USERPAYING) stays pending.

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

/** A correctly signed notification whose resource is `plain`, encrypted with `key`. */
function signedNotification(plain: string, key = keys.apiV3Key) {
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from('transaction'));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const body = JSON.stringify({
    id: randomBytes(8).toString('hex'),
    create_time: new Date().toISOString(),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: ciphertext.toString('base64'),
      associated_data: 'transaction',
      nonce,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headerNonce = randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256')
    .update(`${timestamp}\n${headerNonce}\n${body}\n`)
    .sign(keys.platformPrivateKey, 'base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': headerNonce,
      'wechatpay-serial': keys.platformSerial,
      'wechatpay-signature': signature,
    },
  };
}

const transaction = (outTradeNo: string, totalFen: number) =>
  JSON.stringify({
    appid: keys.appId,
    mchid: keys.mchId,
    out_trade_no: outTradeNo,
    transaction_id: `42000${randomBytes(10).toString('hex')}`,
    trade_type: 'NATIVE',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    amount: { total: totalFen, payer_total: totalFen, currency: 'CNY', payer_currency: 'CNY' },
  });

async function notify(n: { body: string; headers: Record<string, string> }) {
  const res = await fetch(`${cp.url}/api/billing/wechat/notify`, {
    method: 'POST',
    headers: n.headers,
    body: n.body,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as { code: string; message: string } };
}

const balance = async (api: ApiClient) =>
  (await api.request<{ balance: number }>('GET', '/api/billing/balance')).body.balance;

describe('WeChat Pay notifications that cannot be honoured', () => {
  it('a resource that does not decrypt, an unknown order or a wrong amount: 4xx FAIL, nothing credited', async () => {
    const api = new ApiClient(cp.url);
    await api.register('notified1');
    const created = await api.request<{ out_trade_no: string }>('POST', '/api/billing/wechat/create', {
      amount: 10,
      payment_method: 'wechat',
    });
    const no = created.body.out_trade_no;

    const undecryptable = await notify(signedNotification(transaction(no, 1000), 'x'.repeat(32)));
    expect(undecryptable.status).toBe(400);
    expect(undecryptable.body).toEqual({ code: 'FAIL', message: '通知内容解密失败' });

    const unknown = await notify(signedNotification(transaction('P_NO_SUCH_ORDER', 1000)));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'FAIL', message: '支付订单不存在' });

    const wrongAmount = await notify(signedNotification(transaction(no, 1)));
    expect(wrongAmount.status).toBe(400);
    expect(wrongAmount.body).toEqual({ code: 'FAIL', message: '支付金额与订单不符' });

    expect(await balance(api)).toBe(20);
    const payment = await cp.knex('payments').where({ out_trade_no: no }).first();
    expect(payment.status).toBe('pending');
    // The right notification still credits.
    expect((await notify(signedNotification(transaction(no, 1000)))).status).toBe(204);
    expect(await balance(api)).toBe(30);
  });

  it('USERPAYING keeps the payment pending; PAYERROR ends it', async () => {
    const api = new ApiClient(cp.url);
    await api.register('notified2');
    const created = await api.request<{ out_trade_no: string }>('POST', '/api/billing/wechat/create', {
      amount: 10,
      payment_method: 'wechat',
    });
    const no = created.body.out_trade_no;
    const order = standIn.orders.get(no);
    if (!order) throw new Error('no order at the stand-in');
    (order as { state: string }).state = 'USERPAYING';
    const paying = await api.request<{ trade_state: string }>(
      'GET',
      `/api/billing/wechat/query?out_trade_no=${no}`,
    );
    expect(paying.body.trade_state).toBe('USERPAYING');
    expect((await cp.knex('payments').where({ out_trade_no: no }).first()).status).toBe('pending');
    (order as { state: string }).state = 'PAYERROR';
    const failed = await api.request<{ trade_state: string }>(
      'GET',
      `/api/billing/wechat/query?out_trade_no=${no}`,
    );
    expect(failed.body.trade_state).toBe('PAYERROR');
    expect((await cp.knex('payments').where({ out_trade_no: no }).first()).status).toBe('failed');
  });
});
