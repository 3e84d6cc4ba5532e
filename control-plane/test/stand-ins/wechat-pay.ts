import {
  createCipheriv,
  createSign,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen, readBody, type StandIn } from './http.js';

export interface WechatPayStandInKeys {
  mchId: string;
  appId: string;
  /** The merchant's API certificate serial and public key (verifies the Authorization header). */
  merchantSerial: string;
  merchantPublicKey: KeyObject;
  /** The platform's key pair: answers and notifications are signed with its private key. */
  platformSerial: string;
  platformPrivateKey: KeyObject;
  apiV3Key: string;
}

interface Order {
  outTradeNo: string;
  total: number;
  description: string;
  notifyUrl: string;
  state: 'NOTPAY' | 'SUCCESS' | 'CLOSED';
  transactionId?: string;
}

const AUTH = /^WECHATPAY2-SHA256-RSA2048 (.+)$/;

/**
 * A merchant's and the platform's keys for one test file, and the control plane's `wechatPay`
 * settings talking to a stand-in at `baseUrl` (`overrides` to break one on purpose).
 */
export function wechatPayTestKeys() {
  const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys = {
    mchId: '1900000109',
    appId: 'wxd678efh567hg6787',
    merchantSerial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
    merchantPublicKey: merchant.publicKey,
    platformSerial: 'PUB_KEY_ID_0114232134912410000000000000',
    platformPrivateKey: platform.privateKey,
    apiV3Key: randomBytes(16).toString('hex'),
  };
  const settings = (baseUrl: string, overrides: { serialNo?: string } = {}) => ({
    mchId: keys.mchId,
    appId: keys.appId,
    serialNo: overrides.serialNo ?? keys.merchantSerial,
    privateKey: merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    apiV3Key: keys.apiV3Key,
    platformPublicKey: platform.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    platformSerial: keys.platformSerial,
    notifyUrl: 'https://gpu.example.com/api/billing/wechat/notify',
    baseUrl,
  });
  return { keys, settings };
}

/**
 * A stand-in for WeChat Pay API v3 (api.mch.weixin.qq.com) on 127.0.0.1: Native order, query by
 * out_trade_no, close. It refuses requests whose WECHATPAY2-SHA256-RSA2048 signature does not
 * verify with the merchant key, signs every answer with the platform key, and builds
 * TRANSACTION.SUCCESS notifications (RSA-signed, resource AES-256-GCM encrypted).
 */
export async function startWechatPayStandIn(keys: WechatPayStandInKeys) {
  const orders = new Map<string, Order>();
  const requests: { method: string; path: string; authorized: boolean }[] = [];

  const sign = (message: string) =>
    createSign('RSA-SHA256').update(message).sign(keys.platformPrivateKey, 'base64');

  const reply = (res: ServerResponse, status: number, payload?: unknown) => {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString('hex');
    res.writeHead(status, {
      ...(body ? { 'content-type': 'application/json' } : {}),
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': keys.platformSerial,
      'wechatpay-signature': sign(`${timestamp}\n${nonce}\n${body}\n`),
    });
    res.end(body);
  };

  const authorized = (req: IncomingMessage, path: string, body: string): boolean => {
    const match = AUTH.exec(req.headers.authorization ?? '');
    if (!match?.[1]) return false;
    const fields = Object.fromEntries(
      [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]),
    );
    if (fields.mchid !== keys.mchId || fields.serial_no !== keys.merchantSerial) return false;
    if (Math.abs(Date.now() / 1000 - Number(fields.timestamp)) > 300) return false;
    const message = `${req.method}\n${path}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    return createVerify('RSA-SHA256')
      .update(message)
      .verify(keys.merchantPublicKey, fields.signature ?? '', 'base64');
  };

  const server: StandIn = await listen(async (req, res) => {
    const path = req.url ?? '/';
    const body = await readBody(req);
    const ok = authorized(req, path, body);
    requests.push({ method: req.method ?? '', path, authorized: ok });
    if (!ok) return reply(res, 401, { code: 'SIGN_ERROR', message: '签名错误' });
    const url = new URL(path, 'http://stand-in');
    if (req.method === 'POST' && url.pathname === '/v3/pay/transactions/native') {
      const p = JSON.parse(body) as {
        appid: string;
        mchid: string;
        out_trade_no: string;
        description: string;
        notify_url: string;
        amount: { total: number };
      };
      if (p.appid !== keys.appId || p.mchid !== keys.mchId) {
        return reply(res, 400, { code: 'PARAM_ERROR', message: 'appid或mchid不正确' });
      }
      if (orders.has(p.out_trade_no))
        return reply(res, 400, { code: 'ORDER_NO_USED', message: '商户订单号重复' });
      orders.set(p.out_trade_no, {
        outTradeNo: p.out_trade_no,
        total: p.amount.total,
        description: p.description,
        notifyUrl: p.notify_url,
        state: 'NOTPAY',
      });
      return reply(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString('hex')}` });
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && query?.[1]) {
      if (url.searchParams.get('mchid') !== keys.mchId)
        return reply(res, 400, { code: 'PARAM_ERROR', message: 'mchid' });
      const order = orders.get(decodeURIComponent(query[1]));
      if (!order) return reply(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
      return reply(res, 200, transaction(order));
    }
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(url.pathname);
    if (req.method === 'POST' && close?.[1]) {
      const order = orders.get(decodeURIComponent(close[1]));
      if (!order) return reply(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
      if (order.state === 'SUCCESS') return reply(res, 400, { code: 'ORDERPAID', message: '订单已支付' });
      order.state = 'CLOSED';
      return reply(res, 204);
    }
    return reply(res, 404, { code: 'NOT_FOUND', message: 'no such API' });
  });

  function transaction(order: Order) {
    return {
      appid: keys.appId,
      mchid: keys.mchId,
      out_trade_no: order.outTradeNo,
      transaction_id: order.transactionId,
      trade_type: 'NATIVE',
      trade_state: order.state,
      trade_state_desc:
        order.state === 'SUCCESS' ? '支付成功' : order.state === 'CLOSED' ? '订单已关闭' : '未支付',
      amount: { total: order.total, payer_total: order.total, currency: 'CNY', payer_currency: 'CNY' },
    };
  }

  return {
    ...server,
    orders,
    requests,
    /** The payer scans and pays: the order succeeds. */
    pay(outTradeNo: string) {
      const order = orders.get(outTradeNo);
      if (!order) throw new Error(`no order ${outTradeNo}`);
      order.state = 'SUCCESS';
      order.transactionId = `42000${randomBytes(10).toString('hex')}`;
    },
    /** The TRANSACTION.SUCCESS notification WeChat Pay would POST to notify_url. */
    notification(outTradeNo: string, tamper?: (body: string) => string) {
      const order = orders.get(outTradeNo);
      if (!order) throw new Error(`no order ${outTradeNo}`);
      const nonce = randomBytes(6).toString('hex');
      const associated = 'transaction';
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(keys.apiV3Key), Buffer.from(nonce));
      cipher.setAAD(Buffer.from(associated));
      const plain = JSON.stringify(transaction(order));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      let body = JSON.stringify({
        id: randomBytes(8).toString('hex'),
        create_time: new Date().toISOString(),
        resource_type: 'encrypt-resource',
        event_type: 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        resource: {
          original_type: 'transaction',
          algorithm: 'AEAD_AES_256_GCM',
          ciphertext: ciphertext.toString('base64'),
          associated_data: associated,
          nonce,
        },
      });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headerNonce = randomBytes(16).toString('hex');
      const signature = sign(`${timestamp}\n${headerNonce}\n${body}\n`);
      if (tamper) body = tamper(body);
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'wechatpay-timestamp': timestamp,
          'wechatpay-nonce': headerNonce,
          'wechatpay-serial': keys.platformSerial,
          'wechatpay-signature': signature,
        },
        notifyUrl: order.notifyUrl,
      };
    },
  };
}
