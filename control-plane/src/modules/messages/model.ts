import { Model, type Modifiers, type QueryBuilder } from 'objection';

/** A message a sandbox provider would have sent (no SMTP or SMS credentials configured). */
export class OutboxMessageModel extends Model {
  static override tableName = 'outbox_messages';

  // created_at is a Date: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['channel', 'to', 'body'],
    properties: {
      id: { type: 'integer' },
      channel: { type: 'string', enum: ['email', 'sms'] },
      to: { type: 'string' },
      subject: { type: 'string' },
      body: { type: 'string' },
      code: { type: ['string', 'null'] },
    },
  };

  static override modifiers: Modifiers<QueryBuilder<OutboxMessageModel>> = {
    newestFirst(query) {
      query.orderBy('id', 'desc');
    },
  };

  id!: number;
  channel!: 'email' | 'sms';
  to!: string;
  subject!: string;
  body!: string;
  code!: string | null;
  created_at!: Date;
}
