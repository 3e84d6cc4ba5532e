import { createHmac, randomUUID } from 'node:crypto';
import { listen, readBody, type StandIn, sendJson } from './http.js';

export interface ReceivedSms {
  phone: string;
  signName: string;
  templateCode: string;
  templateParam: Record<string, string>;
}

/** RFC 3986 percent-encoding byte by byte, written apart from the platform's (a second opinion). */
function rfc3986(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * A stand-in for dysmsapi.aliyuncs.com's SendSms: checks the common parameters, the signature
 * (version 1.0, HMAC-SHA1 with `secret&`), the timestamp and nonce, and records the message.
 */
export async function startAliyunSmsStandIn(credentials: { accessKeyId: string; accessKeySecret: string }) {
  const received: ReceivedSms[] = [];
  const nonces = new Set<string>();
  /** Phones whose messages the provider refuses (flow control). */
  const refusePhones = new Set<string>();
  const server: StandIn = await listen((req, res) => {
    void (async () => {
      const raw = req.method === 'POST' ? await readBody(req) : ((req.url ?? '').split('?')[1] ?? '');
      const params = new Map<string, string>();
      for (const pair of raw.split('&')) {
        const [k, v = ''] = pair.split('=');
        if (k) params.set(decodeURIComponent(k), decodeURIComponent(v));
      }
      const requestId = randomUUID();
      const fail = (status: number, code: string, message: string) =>
        sendJson(res, status, { RequestId: requestId, Code: code, Message: message });

      if (params.get('AccessKeyId') !== credentials.accessKeyId) {
        return fail(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
      }
      const canonical = [...params.keys()]
        .filter((k) => k !== 'Signature')
        .sort()
        .map((k) => `${rfc3986(k)}=${rfc3986(params.get(k) as string)}`)
        .join('&');
      const stringToSign = `${req.method}&${rfc3986('/')}&${rfc3986(canonical)}`;
      const expected = createHmac('sha1', `${credentials.accessKeySecret}&`)
        .update(stringToSign)
        .digest('base64');
      if (params.get('Signature') !== expected) {
        return fail(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
      }
      const stamp = Date.parse(params.get('Timestamp') ?? '');
      if (
        !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(params.get('Timestamp') ?? '') ||
        Math.abs(Date.now() - stamp) > 15 * 60_000
      ) {
        return fail(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
      }
      const nonce = params.get('SignatureNonce') ?? '';
      if (!nonce || nonces.has(nonce))
        return fail(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
      nonces.add(nonce);
      for (const [k, v] of [
        ['Action', 'SendSms'],
        ['Version', '2017-05-25'],
        ['SignatureMethod', 'HMAC-SHA1'],
        ['SignatureVersion', '1.0'],
        ['Format', 'JSON'],
      ] as const) {
        if (params.get(k) !== v) return fail(400, 'MissingParameter', `${k} must be ${v}`);
      }
      const phone = params.get('PhoneNumbers') ?? '';
      if (refusePhones.has(phone))
        return sendJson(res, 200, {
          RequestId: requestId,
          Code: 'isv.BUSINESS_LIMIT_CONTROL',
          Message: '触发分钟级流控Permits:1',
        });
      received.push({
        phone,
        signName: params.get('SignName') ?? '',
        templateCode: params.get('TemplateCode') ?? '',
        templateParam: JSON.parse(params.get('TemplateParam') ?? '{}') as Record<string, string>,
      });
      sendJson(res, 200, { RequestId: requestId, Code: 'OK', Message: 'OK', BizId: `${Date.now()}^0` });
    })();
  });
  return { ...server, received, refusePhones };
}
