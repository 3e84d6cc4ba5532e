import type { Knex } from 'knex';
import { OutboxMessageModel } from './model.js';

export interface OutboxMessage {
  id: number;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  code: string | null;
  created_at: string;
}

type OutboxRow = Pick<
  OutboxMessageModel,
  'id' | 'channel' | 'to' | 'subject' | 'body' | 'code' | 'created_at'
>;

/** Owns outbox_messages: what the sandbox providers would have sent. */
export class OutboxRepository {
  constructor(private readonly knex: Knex) {}

  async insert(row: Omit<OutboxRow, 'id' | 'created_at'>): Promise<void> {
    await OutboxMessageModel.query(this.knex).insert(row);
  }

  async list(filter: {
    offset: number;
    limit: number;
    channel?: string | undefined;
    to?: string | undefined;
  }): Promise<{ items: OutboxMessage[]; total: number }> {
    const q = OutboxMessageModel.query(this.knex);
    if (filter.channel) q.where('channel', filter.channel);
    if (filter.to) q.whereILike('to', `%${filter.to.replace(/[%_\\]/g, '\\$&')}%`);
    const [rows, total] = await Promise.all([
      q.clone().modify('newestFirst').offset(filter.offset).limit(filter.limit),
      q.clone().resultSize(),
    ]);
    return {
      items: rows.map((model) => {
        const r = model.toJSON() as OutboxRow;
        return { ...r, created_at: r.created_at.toISOString() };
      }),
      total,
    };
  }
}
