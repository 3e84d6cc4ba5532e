import type { Knex } from 'knex';
import type { CodePurpose } from '../messages/service.js';
import { type CodeLookup, VerificationCodeModel } from './model.js';

export type { CodeLookup } from './model.js';

export type CodeRow = Pick<
  VerificationCodeModel,
  | 'id'
  | 'purpose'
  | 'channel'
  | 'target'
  | 'user_id'
  | 'code_hash'
  | 'attempts'
  | 'created_at'
  | 'expires_at'
  | 'consumed_at'
>;

const plain = (model: VerificationCodeModel): CodeRow => ({ ...model.toJSON() }) as CodeRow;

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
    const row = await VerificationCodeModel.query(trx ?? this.knex)
      .where({ purpose, target })
      .modify('newestFirst')
      .select('created_at')
      .first();
    return row?.created_at;
  }

  /** Retires every open code of the lookup: only the newest code is ever valid. */
  async retireOpen(lookup: CodeLookup, now: Date, trx: Knex.Transaction): Promise<void> {
    await VerificationCodeModel.query(trx).modify('open', lookup).patch({ consumed_at: now });
  }

  async insert(
    row: Omit<CodeRow, 'id' | 'attempts' | 'created_at' | 'consumed_at'>,
    trx: Knex.Transaction,
  ): Promise<number> {
    const inserted = await VerificationCodeModel.query(trx).insert(row).returning('id');
    return inserted.id;
  }

  async delete(id: number): Promise<void> {
    await VerificationCodeModel.query(this.knex).deleteById(id);
  }

  async latestOpen(lookup: CodeLookup): Promise<CodeRow | undefined> {
    const row = await VerificationCodeModel.query(this.knex)
      .modify('open', lookup)
      .modify('newestFirst')
      .orderBy('id', 'desc')
      .first();
    return row ? plain(row) : undefined;
  }

  async addAttempt(id: number): Promise<void> {
    await VerificationCodeModel.query(this.knex).findById(id).increment('attempts', 1);
  }

  /** Marks the code used; false when another request used it first. */
  async consume(id: number, now: Date): Promise<boolean> {
    const count = await VerificationCodeModel.query(this.knex)
      .findById(id)
      .whereNull('consumed_at')
      .patch({ consumed_at: now });
    return count === 1;
  }
}
