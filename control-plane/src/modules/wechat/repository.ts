import type { Knex } from 'knex';
import { WechatSandboxCodeModel } from './model.js';

/** Owns wechat_sandbox_codes. */
export class WechatSandboxRepository {
  constructor(private readonly knex: Knex) {}

  async insert(row: {
    code_hash: string;
    openid: string;
    nickname: string;
    expires_at: Date;
  }): Promise<void> {
    await WechatSandboxCodeModel.query(this.knex).insert(row);
  }

  /** Uses the code once; undefined when it is unknown, expired or used (see `isUsed`). */
  async use(codeHash: string, now: Date): Promise<{ openid: string; nickname: string } | undefined> {
    // `where`, not findById: findById would make the returned rows a single one.
    const [row] = await WechatSandboxCodeModel.query(this.knex)
      .where({ code_hash: codeHash })
      .modify('unused')
      .where('expires_at', '>', now)
      .patch({ used_at: now })
      .returning(['openid', 'nickname']);
    return row ? { openid: row.openid, nickname: row.nickname } : undefined;
  }

  async isUsed(codeHash: string): Promise<boolean> {
    const row = await WechatSandboxCodeModel.query(this.knex)
      .findById(codeHash)
      .whereNotNull('used_at')
      .select('code_hash');
    return row !== undefined;
  }
}
