import { createHmac, randomUUID } from 'node:crypto';

export interface SmsMessage {
  phone: string;
  /** A verification code (the code template), or empty for a notice. */
  code: string;
  /** The text as the template renders it (what the sandbox outbox keeps). */
  text: string;
  /** A notice (balance alert, release warning): the notice template with its subject. */
  notice?: { subject: string } | undefined;
}

export interface SmsTransport {
  readonly kind: 'aliyun' | 'sandbox';
  /** Whether notices can go out (Aliyun needs an approved notice template for them). */
  readonly sendsNotices: boolean;
  send(message: SmsMessage): Promise<void>;
}

export interface AliyunSmsSettings {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** A template with one variable, ${code}. */
  templateCode: string;
  /**
   * A notice template with one variable, ${subject} (e.g. 您的账户有新的通知：${subject}，请登录控制台查看。);
   * without it notices go by e-mail only.
   */
  noticeTemplateCode?: string | undefined;
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

  get sendsNotices(): boolean {
    return Boolean(this.settings.noticeTemplateCode);
  }

  constructor(
    private readonly settings: AliyunSmsSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(message: SmsMessage): Promise<void> {
    if (message.notice && !this.settings.noticeTemplateCode) {
      throw new Error('aliyun sms: no notice template configured (ALIYUN_SMS_NOTICE_TEMPLATE_CODE)');
    }
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
      TemplateCode: message.notice ? (this.settings.noticeTemplateCode ?? '') : this.settings.templateCode,
      // Aliyun caps a notice variable at 35 characters.
      TemplateParam: JSON.stringify(
        message.notice ? { subject: message.notice.subject.slice(0, 35) } : { code: message.code },
      ),
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
