import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  type KeyObject,
  randomBytes,
} from 'node:crypto';

export interface WechatPaySettings {
  mchId: string;
  appId: string;
  /** Serial number of the merchant API certificate (the key below). */
  serialNo: string;
  /** Merchant API private key (PEM). */
  privateKey: string;
  /** APIv3 key: 32 characters, the AES-256-GCM key of notify resources. */
  apiV3Key: string;
  /** WeChat Pay platform public key (PEM) verifying answers and notifications. */
  platformPublicKey: string;
  /** Its serial (Wechatpay-Serial): the platform certificate serial or the public key id. */
  platformSerial: string;
  notifyUrl: string;
  /** https://api.mch.weixin.qq.com unless overridden (a stand-in in tests). */
  baseUrl: string;
}

/** WeChat's trade states: SUCCESS, NOTPAY, CLOSED, REFUND, REVOKED, USERPAYING, PAYERROR. */
export interface TradeQuery {
  tradeState: string;
  transactionId?: string | undefined;
  amountFen?: number | undefined;
}

/** A payment provider for Native (QR) payments: WeChat Pay itself or the local sandbox. */
export interface PayProvider {
  readonly kind: 'wechat' | 'sandbox';
  createNative(order: {
    outTradeNo: string;
    description: string;
    amountFen: number;
    expiresAt: Date;
  }): Promise<{
    codeUrl: string;
  }>;
  query(outTradeNo: string): Promise<TradeQuery>;
  close(outTradeNo: string): Promise<void>;
}

/** The decrypted `resource` of a TRANSACTION.SUCCESS notification. */
export interface NotifiedTransaction {
  mchid: string;
  appid: string;
  out_trade_no: string;
  transaction_id: string;
  trade_state: string;
  amount: { total: number; payer_total?: number; currency?: string };
}

export class WechatPayError extends Error {}

/** A signed notification whose resource does not decrypt or parse: refused (4xx), never retried as a 500. */
export class WechatPayResourceError extends WechatPayError {}

/** Signs `message` with SHA256-RSA (PKCS#1 v1.5), base64: WeChat Pay v3's signature scheme. */
export function rsaSign(message: string, key: KeyObject | string): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(key, 'base64');
}

export function rsaVerify(message: string, signature: string, key: KeyObject | string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(key, signature, 'base64');
  } catch {
    return false;
  }
}

/** `WECHATPAY2-SHA256-RSA2048 mchid=…` for one request (method, path with query, body). */
export function authorizationHeader(p: {
  mchId: string;
  serialNo: string;
  privateKey: KeyObject | string;
  method: string;
  pathWithQuery: string;
  body: string;
  timestamp?: number;
  nonce?: string;
}): string {
  const timestamp = p.timestamp ?? Math.floor(Date.now() / 1000);
  const nonce = p.nonce ?? randomBytes(16).toString('hex');
  const message = `${p.method}\n${p.pathWithQuery}\n${timestamp}\n${nonce}\n${p.body}\n`;
  const signature = rsaSign(message, p.privateKey);
  return `WECHATPAY2-SHA256-RSA2048 mchid="${p.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${p.serialNo}"`;
}

/** AEAD_AES_256_GCM of a notify resource: the ciphertext carries the 16-byte tag at its end. */
export function decryptResource(
  resource: { ciphertext: string; nonce: string; associated_data?: string | undefined },
  apiV3Key: string,
): string {
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length < 17) throw new WechatPayError('ciphertext too short');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(resource.nonce, 'utf8'),
  );
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

export interface SignedMessage {
  timestamp: string | undefined;
  nonce: string | undefined;
  signature: string | undefined;
  serial: string | undefined;
  body: string;
}

const MAX_SKEW_SECONDS = 300;

/** The client side of WeChat Pay API v3 for Native payments: signed requests, verified answers. */
export class WechatPayV3 implements PayProvider {
  readonly kind = 'wechat';
  private readonly privateKey: KeyObject;
  private readonly platformKey: KeyObject;

  constructor(
    private readonly settings: WechatPaySettings,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.privateKey = createPrivateKey(settings.privateKey);
    this.platformKey = createPublicKey(settings.platformPublicKey);
  }

  /** Checks the Wechatpay-* headers of an answer or a notification against the platform key. */
  verify(m: SignedMessage): void {
    if (!m.timestamp || !m.nonce || !m.signature || !m.serial)
      throw new WechatPayError('missing signature headers');
    if (m.serial !== this.settings.platformSerial)
      throw new WechatPayError(`unknown platform serial ${m.serial}`);
    if (Math.abs(this.now() / 1000 - Number(m.timestamp)) > MAX_SKEW_SECONDS) {
      throw new WechatPayError('timestamp outside the allowed window');
    }
    if (!rsaVerify(`${m.timestamp}\n${m.nonce}\n${m.body}\n`, m.signature, this.platformKey)) {
      throw new WechatPayError('bad signature');
    }
  }

  /** Verifies and decrypts a payment notification (the notify_url's POST). */
  parseNotification(m: SignedMessage): { eventType: string; transaction: NotifiedTransaction } {
    this.verify(m);
    const envelope = JSON.parse(m.body) as {
      event_type?: string;
      resource?: { algorithm?: string; ciphertext: string; nonce: string; associated_data?: string };
    };
    const resource = envelope.resource;
    if (resource?.algorithm !== 'AEAD_AES_256_GCM') throw new WechatPayError('unexpected resource');
    let transaction: NotifiedTransaction;
    try {
      transaction = JSON.parse(decryptResource(resource, this.settings.apiV3Key)) as NotifiedTransaction;
    } catch (err) {
      throw new WechatPayResourceError('resource does not decrypt', { cause: err });
    }
    if (transaction.mchid !== this.settings.mchId)
      throw new WechatPayError('notification for another merchant');
    return { eventType: envelope.event_type ?? '', transaction };
  }

  async createNative(order: { outTradeNo: string; description: string; amountFen: number; expiresAt: Date }) {
    const answer = await this.call<{ code_url?: string }>('POST', '/v3/pay/transactions/native', {
      appid: this.settings.appId,
      mchid: this.settings.mchId,
      description: order.description,
      out_trade_no: order.outTradeNo,
      time_expire: order.expiresAt.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      notify_url: this.settings.notifyUrl,
      amount: { total: order.amountFen, currency: 'CNY' },
    });
    if (!answer?.code_url) throw new WechatPayError('no code_url in the answer');
    return { codeUrl: answer.code_url };
  }

  async query(outTradeNo: string): Promise<TradeQuery> {
    const path = `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}?mchid=${encodeURIComponent(this.settings.mchId)}`;
    const answer = await this.call<{
      trade_state?: string;
      transaction_id?: string;
      amount?: { total?: number };
    }>('GET', path);
    return {
      tradeState: answer?.trade_state ?? 'NOTPAY',
      transactionId: answer?.transaction_id,
      amountFen: answer?.amount?.total,
    };
  }

  async close(outTradeNo: string): Promise<void> {
    await this.call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(outTradeNo)}/close`, {
      mchid: this.settings.mchId,
    });
  }

  private async call<T>(
    method: 'GET' | 'POST',
    pathWithQuery: string,
    payload?: unknown,
  ): Promise<T | undefined> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const res = await fetch(`${this.settings.baseUrl.replace(/\/$/, '')}${pathWithQuery}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        'user-agent': 'gpucloud-control-plane',
        authorization: authorizationHeader({
          mchId: this.settings.mchId,
          serialNo: this.settings.serialNo,
          privateKey: this.privateKey,
          method,
          pathWithQuery,
          body,
          timestamp: Math.floor(this.now() / 1000),
        }),
      },
      body: payload === undefined ? undefined : body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (res.status >= 300) {
      let code = String(res.status);
      try {
        const err = JSON.parse(text) as { code?: string; message?: string };
        code = `${res.status} ${err.code ?? ''} ${err.message ?? ''}`.trim();
      } catch {
        // Not JSON: keep the status.
      }
      throw new WechatPayError(`wechat pay ${method} ${pathWithQuery.split('?')[0]}: ${code}`);
    }
    this.verify({
      timestamp: res.headers.get('wechatpay-timestamp') ?? undefined,
      nonce: res.headers.get('wechatpay-nonce') ?? undefined,
      signature: res.headers.get('wechatpay-signature') ?? undefined,
      serial: res.headers.get('wechatpay-serial') ?? undefined,
      body: text,
    });
    return text ? (JSON.parse(text) as T) : undefined;
  }
}
