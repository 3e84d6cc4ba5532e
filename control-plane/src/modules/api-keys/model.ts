import { Model, type Modifiers, type QueryBuilder } from 'objection';

/** An API key for X-API-Key on /api/mcp/*: its SHA-256 to look it up, an AES-GCM copy to reveal it. */
export class ApiKeyModel extends Model {
  static override tableName = 'api_keys';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // created_at and last_used_at are Date objects: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['user_id', 'name', 'key_hash', 'key_encrypted', 'key_masked'],
    properties: {
      id: { type: 'integer' },
      user_id: { type: 'integer' },
      name: { type: 'string' },
      key_hash: { type: 'string' },
      key_encrypted: { type: 'string' },
      key_masked: { type: 'string' },
    },
  };

  static override modifiers: Modifiers<QueryBuilder<ApiKeyModel>> = {
    ofUser(query, userId: number) {
      query.where('api_keys.user_id', userId);
    },
  };

  id!: number;
  user_id!: number;
  name!: string;
  key_hash!: string;
  key_encrypted!: string;
  key_masked!: string;
  created_at!: Date;
  last_used_at!: Date | null;
}

export type ApiKeyRow = Pick<
  ApiKeyModel,
  'id' | 'user_id' | 'name' | 'key_hash' | 'key_encrypted' | 'key_masked' | 'created_at' | 'last_used_at'
>;
