import type { SmsMessage, SmsTransport } from './aliyun-sms.js';
import type { EmailMessage, EmailTransport } from './email.js';
import type { OutboxRepository } from './repository.js';

// The repository moved to repository.ts; kept importable from here.
export { type OutboxMessage, OutboxRepository } from './repository.js';

/** E-mail without SMTP settings: kept in the outbox for admins (and tests) to read. */
export class SandboxEmailTransport implements EmailTransport {
  readonly kind = 'sandbox';
  constructor(private readonly outbox: OutboxRepository) {}

  async send(message: EmailMessage): Promise<void> {
    await this.outbox.insert({
      channel: 'email',
      to: message.to,
      subject: message.subject,
      body: message.text,
      code: message.code ?? null,
    });
  }
}

/** SMS without provider credentials: kept in the outbox. */
export class SandboxSmsTransport implements SmsTransport {
  readonly kind = 'sandbox';
  readonly sendsNotices = true;
  constructor(private readonly outbox: OutboxRepository) {}

  async send(message: SmsMessage): Promise<void> {
    await this.outbox.insert({
      channel: 'sms',
      to: message.phone,
      subject: '',
      body: message.text,
      code: message.code || null,
    });
  }
}
