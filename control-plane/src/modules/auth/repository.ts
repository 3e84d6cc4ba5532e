import type { Knex } from 'knex';
import { SessionModel } from './model.js';

export interface SessionRow {
  id: number;
  user_id: number;
  expires_at: Date;
  revoked_at: Date | null;
}

/** The sessions table: tokens are stored as SHA-256 hashes only. */
export class SessionsRepository {
  constructor(private readonly knex: Knex) {}

  async insert(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await SessionModel.query(this.knex).insert({
      user_id: userId,
      token_hash: tokenHash,
      expires_at: expiresAt,
    });
  }

  async findActive(tokenHash: string, now: Date): Promise<SessionRow | undefined> {
    const row = await SessionModel.query(this.knex)
      .select('id', 'user_id', 'expires_at', 'revoked_at')
      .where({ token_hash: tokenHash })
      .modify('unrevoked')
      .where('expires_at', '>', now)
      .first();
    return row ? ({ ...row.toJSON() } as SessionRow) : undefined;
  }

  async revokeAllForUser(userId: number, now: Date): Promise<void> {
    await SessionModel.query(this.knex)
      .where({ user_id: userId })
      .modify('unrevoked')
      .patch({ revoked_at: now });
  }

  async revoke(tokenHash: string, now: Date): Promise<void> {
    await SessionModel.query(this.knex)
      .where({ token_hash: tokenHash })
      .modify('unrevoked')
      .patch({ revoked_at: now });
  }
}
