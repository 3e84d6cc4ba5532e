import { Model, type Modifiers, type QueryBuilder } from 'objection';

/** A one-time code of the sandbox WeChat identity page (no WeChat credentials configured). */
export class WechatSandboxCodeModel extends Model {
  static override tableName = 'wechat_sandbox_codes';
  static override idColumn = 'code_hash';
  /** `first()` adds LIMIT 1, as knex's does. */
  static override useLimitInFirst = true;

  // created_at, expires_at and used_at are Date objects: left out of `properties`.
  static override jsonSchema = {
    type: 'object',
    required: ['code_hash', 'openid', 'nickname'],
    properties: {
      code_hash: { type: 'string' },
      openid: { type: 'string' },
      nickname: { type: 'string' },
    },
  };

  static override modifiers: Modifiers<QueryBuilder<WechatSandboxCodeModel>> = {
    unused(query) {
      query.whereNull('used_at');
    },
  };

  code_hash!: string;
  openid!: string;
  nickname!: string;
  created_at!: Date;
  expires_at!: Date;
  used_at!: Date | null;
}
