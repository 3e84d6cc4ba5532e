import type { Knex } from 'knex';
import type { SmsMessage, SmsTransport } from './aliyun-sms.js';
import type { EmailMessage, EmailTransport } from './email.js';

export interface OutboxMessage {
  id: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  code: string | null;
  created_at: string;
}

interface OutboxRow {
  id: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  code: string | null;
  created_at: Date;
}

/** Owns outbox_messages: what the sandbox providers would have sent. */
export class OutboxRepository {
  constructor(private readonly knex: Knex) {}

  async insert(row: Omit<OutboxRow, 'id' | 'created_at'>): Promise<void> {
    await this.knex('outbox_messages').insert(row);
  }

  async list(filter: {
    offset: number;
    limit: number;
    channel?: string | undefined;
    to?: string | undefined;
  }): Promise<{ items: OutboxMessage[]; total: number }> {
    const q = this.knex<OutboxRow>('outbox_messages');
    if (filter.channel) q.where('channel', filter.channel);
    if (filter.to) q.whereILike('to', `%${filter.to.replace(/[%_\\]/g, '\\$&')}%`);
    const [rows, counted] = await Promise.all([
      q.clone().select('*').orderBy('id', 'desc').offset(filter.offset).limit(filter.limit),
      q.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return {
      items: (rows as OutboxRow[]).map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      total: Number(counted[0]?.count ?? 0),
    };
  }
}

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
