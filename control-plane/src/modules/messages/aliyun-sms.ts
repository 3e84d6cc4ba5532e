import { createHmac, randomUUID } from 'node:crypto';

export interface SmsMessage {
  phone: string;
  code: string;
  /** The text as the template renders it (what the sandbox outbox keeps). */
  text: string;
}

export interface SmsTransport {
  readonly kind: 'aliyun' | 'sandbox';
  send(message: SmsMessage): Promise<void>;
}

export interface AliyunSmsSettings {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** A template with one variable, ${code}. */
  templateCode: string;
  /** https://dysmsapi.aliyuncs.com unless overridden (a stand-in in tests). */
  endpoint: string;
  regionId: string;
}

/** Aliyun POP percent-encoding: RFC 3986, so only A-Z a-z 0-9 - _ . ~ stay as they are. */
export function popEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Signature version 1.0 (HMAC-SHA1) of an RPC-style request, as Aliyun documents it. */
export function signRpcRequest(
  method: 'GET' | 'POST',
  params: Record<string, string>,
  secret: string,
): string {
  const canonical = Object.keys(params)
    .filter((key) => key !== 'Signature')
    .sort()
    .map((key) => `${popEncode(key)}=${popEncode(params[key] as string)}`)
    .join('&');
  const stringToSign = `${method}&${popEncode('/')}&${popEncode(canonical)}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign, 'utf8').digest('base64');
}

interface SendSmsAnswer {
  Code?: string;
  Message?: string;
  BizId?: string;
  RequestId?: string;
}

/** SMS through Aliyun's SendSms API (dysmsapi 2017-05-25), signed with the AccessKey pair. */
export class AliyunSmsTransport implements SmsTransport {
  readonly kind = 'aliyun';

  constructor(
    private readonly settings: AliyunSmsSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const params: Record<string, string> = {
      AccessKeyId: this.settings.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: message.phone,
      RegionId: this.settings.regionId,
      SignName: this.settings.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: this.settings.templateCode,
      TemplateParam: JSON.stringify({ code: message.code }),
      Timestamp: this.now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    params.Signature = signRpcRequest('POST', params, this.settings.accessKeySecret);
    const body = Object.entries(params)
      .map(([key, value]) => `${popEncode(key)}=${popEncode(value)}`)
      .join('&');
    const res = await fetch(`${this.settings.endpoint.replace(/\/$/, '')}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let answer: SendSmsAnswer;
    try {
      answer = JSON.parse(text) as SendSmsAnswer;
    } catch {
      throw new Error(`aliyun sms: HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
    if (answer.Code !== 'OK') {
      throw new Error(`aliyun sms: ${answer.Code ?? res.status} ${answer.Message ?? ''}`.trim());
    }
  }
}
