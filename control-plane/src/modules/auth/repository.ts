import type { Knex } from 'knex';

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
    await this.knex('sessions').insert({ user_id: userId, token_hash: tokenHash, expires_at: expiresAt });
  }

  async findActive(tokenHash: string, now: Date): Promise<SessionRow | undefined> {
    return this.knex('sessions')
      .select('id', 'user_id', 'expires_at', 'revoked_at')
      .where({ token_hash: tokenHash })
      .whereNull('revoked_at')
      .where('expires_at', '>', now)
      .first();
  }

  async revokeAllForUser(userId: number, now: Date): Promise<void> {
    await this.knex('sessions')
      .where({ user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: now });
  }

  async revoke(tokenHash: string, now: Date): Promise<void> {
    await this.knex('sessions')
      .where({ token_hash: tokenHash })
      .whereNull('revoked_at')
      .update({ revoked_at: now });
  }
}
