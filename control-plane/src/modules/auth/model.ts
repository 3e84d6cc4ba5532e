import { Model, type Modifiers, type QueryBuilder } from 'objection';

/** A sign-in session; the token itself is never stored, only its SHA-256 hash. */
export class SessionModel extends Model {
  static override tableName = 'sessions';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // Timestamps (expires_at, revoked_at) are written as Date objects, which JSON Schema cannot
  // describe: they stay out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'token_hash'],
    properties: {
      id: { type: 'integer' },
      user_id: { type: 'integer' },
      token_hash: { type: 'string' },
    },
  };

  static override modifiers: Modifiers<QueryBuilder<SessionModel>> = {
    /** Not revoked (it may still have expired). */
    unrevoked(query) {
      query.whereNull('sessions.revoked_at');
    },
  };

  id!: number;
  user_id!: number;
  token_hash!: string;
  created_at!: Date;
  expires_at!: Date;
  revoked_at!: Date | null;
}
