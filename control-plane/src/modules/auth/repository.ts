import type { Knex } from 'knex';
import { SessionModel } from './model.js';

export interface SessionRow {
  id: number;
  user_id: number;
  expires_at: Date;
  revoked_at: Date | null;
}

/**
 * The PostgreSQL channel on which a control plane says that what it may have cached of a user's
 * sessions is stale (signed out, revoked, account disabled, rights changed). The payload is
 * `<user id> <nonce>`: every replica drops the user's cached sessions; the sender waits for its
 * own nonce to come back before it answers (see SessionRevocations).
 */
export const REVOKED_CHANNEL = 'session_revoked';

export const revokedPayload = (userId: number, nonce: string) => `${userId} ${nonce}`;

/** Where each replica answers an announcement's nonce once it dropped what it had cached. */
export const REVOKED_ACK_CHANNEL = 'session_revoked_ack';

/** The application_name of the replicas' listening connections (they are counted by it). */
export const LISTENER_NAME = 'gpucloud-session-listener';

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

  /**
   * Revokes every session of the user and announces it, in one transaction. Answers how many
   * replicas listen (each acknowledges the announcement).
   */
  async revokeAllForUser(userId: number, now: Date, nonce: string): Promise<number> {
    return this.knex.transaction(async (trx) => {
      await SessionModel.query(trx).where({ user_id: userId }).modify('unrevoked').patch({ revoked_at: now });
      return this.notify(trx, userId, nonce);
    });
  }

  /** Revokes one session and announces it (its owner's id), in one transaction; as above. */
  async revoke(tokenHash: string, now: Date, userId: number, nonce: string): Promise<number> {
    return this.knex.transaction(async (trx) => {
      await SessionModel.query(trx)
        .where({ token_hash: tokenHash })
        .modify('unrevoked')
        .patch({ revoked_at: now });
      return this.notify(trx, userId, nonce);
    });
  }

  /** Announces that the user's sessions must be read again (their account changed); as above. */
  async announce(userId: number, nonce: string): Promise<number> {
    return this.notify(this.knex, userId, nonce);
  }

  /** Delivered when the transaction commits (at once outside one); counts the listeners. */
  private async notify(db: Knex | Knex.Transaction, userId: number, nonce: string): Promise<number> {
    const result = await db.raw(
      `select pg_notify(?, ?), (select count(*) from pg_stat_activity
          where application_name = ? and datname = current_database()) as listeners`,
      [REVOKED_CHANNEL, revokedPayload(userId, nonce), LISTENER_NAME],
    );
    return Number(result.rows[0]?.listeners ?? 0);
  }
}
