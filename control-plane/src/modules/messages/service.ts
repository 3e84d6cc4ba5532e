import type { SmsTransport } from './aliyun-sms.js';
import type { EmailTransport } from './email.js';
import type { OutboxRepository } from './repository.js';

export type Channel = 'email' | 'sms';
export type CodePurpose = 'register' | 'verify_email' | 'verify_phone' | 'reset_password';

const PRODUCT = 'GPU 云平台';

const EMAIL_SUBJECTS: Record<CodePurpose, string> = {
  register: `【${PRODUCT}】注册验证码`,
  verify_email: `【${PRODUCT}】邮箱验证码`,
  verify_phone: `【${PRODUCT}】手机验证码`,
  reset_password: `【${PRODUCT}】找回密码验证码`,
};

const ACTIONS: Record<CodePurpose, string> = {
  register: '注册账号',
  verify_email: '验证邮箱',
  verify_phone: '验证手机号',
  reset_password: '重置密码',
};

/** Sends verification codes by e-mail or SMS through whichever transports the configuration chose. */
export class MessagesService {
  constructor(
    private readonly email: EmailTransport,
    private readonly sms: SmsTransport,
    private readonly outbox: OutboxRepository,
  ) {}

  /** Which providers are live: 'sandbox' means the message lands in the outbox only. */
  providers(): { email: EmailTransport['kind']; sms: SmsTransport['kind'] } {
    return { email: this.email.kind, sms: this.sms.kind };
  }

  async sendCode(p: {
    channel: Channel;
    to: string;
    purpose: CodePurpose;
    code: string;
    ttlMinutes: number;
  }): Promise<void> {
    const action = ACTIONS[p.purpose];
    if (p.channel === 'email') {
      await this.email.send({
        to: p.to,
        subject: EMAIL_SUBJECTS[p.purpose],
        text: [
          '您好：',
          '',
          `您正在${action}，验证码为：${p.code}`,
          `验证码${p.ttlMinutes}分钟内有效，请勿泄露给他人。如非本人操作，请忽略本邮件。`,
          '',
          PRODUCT,
        ].join('\n'),
        code: p.code,
      });
    } else {
      await this.sms.send({
        phone: p.to,
        code: p.code,
        text: `【${PRODUCT}】您的验证码为${p.code}，${p.ttlMinutes}分钟内有效，请勿泄露给他人。`,
      });
    }
  }

  /** A notice (not a code) by e-mail and/or SMS, e.g. a low-balance warning from billing. */
  async sendNotice(p: { email?: string | null; phone?: string | null; subject: string; text: string }) {
    if (p.email) await this.email.send({ to: p.email, subject: `【${PRODUCT}】${p.subject}`, text: p.text });
    // By SMS too where it can go: the sandbox outbox, or Aliyun with a notice template.
    if (p.phone && this.sms.sendsNotices) {
      await this.sms.send({
        phone: p.phone,
        code: '',
        text: `【${PRODUCT}】${p.text}`,
        notice: { subject: p.subject },
      });
    }
  }

  listOutbox(filter: { page: number; size: number; channel?: Channel | undefined; to?: string | undefined }) {
    return this.outbox.list({
      offset: (filter.page - 1) * filter.size,
      limit: filter.size,
      channel: filter.channel,
      to: filter.to,
    });
  }
}
