import { Model, type Modifiers, type QueryBuilder } from 'objection';
import type { Channel, CodePurpose } from '../messages/service.js';

/** Which open codes a query is about: one purpose, and a target and/or an account. */
export interface CodeLookup {
  purpose: CodePurpose;
  target?: string | undefined;
  userId?: number | undefined;
}

/** A one-time code sent by e-mail or SMS; only its keyed hash is stored. */
export class VerificationCodeModel extends Model {
  static override tableName = 'verification_codes';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // created_at, expires_at and consumed_at are Date objects: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['purpose', 'channel', 'target', 'code_hash'],
    properties: {
      id: { type: 'integer' },
      purpose: { type: 'string', enum: ['register', 'verify_email', 'verify_phone', 'reset_password'] },
      channel: { type: 'string', enum: ['email', 'sms'] },
      target: { type: 'string' },
      user_id: { type: ['integer', 'null'] },
      code_hash: { type: 'string' },
      attempts: { type: 'integer' },
    },
  };

  static override modifiers: Modifiers<QueryBuilder<VerificationCodeModel>> = {
    /** The codes of the lookup not used yet (expired ones included). */
    open(query, lookup: CodeLookup) {
      query.where('purpose', lookup.purpose).whereNull('consumed_at');
      if (lookup.target !== undefined) query.where('target', lookup.target);
      if (lookup.userId !== undefined) query.where('user_id', lookup.userId);
    },
    newestFirst(query) {
      query.orderBy('created_at', 'desc');
    },
  };

  id!: number;
  purpose!: CodePurpose;
  channel!: Channel;
  target!: string;
  user_id!: number | null;
  code_hash!: string;
  attempts!: number;
  created_at!: Date;
  expires_at!: Date;
  consumed_at!: Date | null;
}
