import type { Knex } from 'knex';
import type { Channel, CodePurpose } from '../messages/service.js';

export interface CodeRow {
  id: number;
  purpose: CodePurpose;
  channel: Channel;
  target: string;
  user_id: number | null;
  code_hash: string;
  attempts: number;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

export interface CodeLookup {
  purpose: CodePurpose;
  target?: string | undefined;
  userId?: number | undefined;
}

/** Owns verification_codes. */
export class VerificationRepository {
  constructor(private readonly knex: Knex) {}

  /**
   * Runs `work` holding a transaction-scoped advisory lock on `lockKey`, so two replicas cannot
   * both decide "no code sent in the last minute" for one target.
   */
  withTargetLock<T>(lockKey: string, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [lockKey]);
      return work(trx);
    });
  }

  async latestCreatedAt(
    purpose: CodePurpose,
    target: string,
    trx?: Knex.Transaction,
  ): Promise<Date | undefined> {
    const row = await (trx ?? this.knex)('verification_codes')
      .where({ purpose, target })
      .orderBy('created_at', 'desc')
      .first<{ created_at: Date } | undefined>('created_at');
    return row?.created_at;
  }

  /** Retires every open code of the lookup: only the newest code is ever valid. */
  async retireOpen(lookup: CodeLookup, now: Date, trx: Knex.Transaction): Promise<void> {
    await this.open(trx, lookup).update({ consumed_at: now });
  }

  async insert(row: Omit<CodeRow, 'id' | 'attempts' | 'created_at' | 'consumed_at'>, trx: Knex.Transaction) {
    const [inserted] = await trx('verification_codes').insert(row).returning<{ id: number }[]>('id');
    return inserted?.id as number;
  }

  async delete(id: number): Promise<void> {
    await this.knex('verification_codes').where({ id }).delete();
  }

  async latestOpen(lookup: CodeLookup): Promise<CodeRow | undefined> {
    return this.open(this.knex, lookup).orderBy('created_at', 'desc').orderBy('id', 'desc').first<CodeRow>();
  }

  async addAttempt(id: number): Promise<void> {
    await this.knex('verification_codes').where({ id }).increment('attempts', 1);
  }

  /** Marks the code used; false when another request used it first. */
  async consume(id: number, now: Date): Promise<boolean> {
    const count = await this.knex('verification_codes')
      .where({ id })
      .whereNull('consumed_at')
      .update({ consumed_at: now });
    return count === 1;
  }

  private open(k: Knex | Knex.Transaction, lookup: CodeLookup) {
    const q = k('verification_codes').where({ purpose: lookup.purpose }).whereNull('consumed_at');
    if (lookup.target !== undefined) q.where({ target: lookup.target });
    if (lookup.userId !== undefined) q.where({ user_id: lookup.userId });
    return q;
  }
}
