import type { Knex } from 'knex';
import { ApiKeyModel, type ApiKeyRow } from './model.js';

export type { ApiKeyRow } from './model.js';

/** The advisory lock namespace of a user's key creations (any 32-bit number of our own). */
const API_KEY_LOCK = 0x6b657973; // 'keys'

const plain = (model: ApiKeyModel): ApiKeyRow => ({ ...model.toJSON() }) as ApiKeyRow;

/** Owns api_keys. Queries run on this repository's knex, not Objection's global one. */
export class ApiKeysRepository {
  constructor(private readonly knex: Knex) {}

  async listForUser(userId: number): Promise<ApiKeyRow[]> {
    const rows = await ApiKeyModel.query(this.knex).modify('ofUser', userId).orderBy('id', 'asc');
    return rows.map(plain);
  }

  async findForUser(userId: number, id: number): Promise<ApiKeyRow | undefined> {
    const row = await ApiKeyModel.query(this.knex).modify('ofUser', userId).findById(id);
    return row && plain(row);
  }

  async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    const row = await ApiKeyModel.query(this.knex).where({ key_hash: keyHash }).first();
    return row && plain(row);
  }

  /**
   * Inserts unless the user already has `max` keys. A transaction-scoped advisory lock on the
   * user's id (namespace API_KEY_LOCK) serialises the count and the insert, so concurrent
   * creations on two replicas cannot pass the limit together. Undefined = limit reached.
   */
  insertBelowLimit(
    row: Omit<ApiKeyRow, 'id' | 'created_at' | 'last_used_at'>,
    max: number,
  ): Promise<ApiKeyRow | undefined> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?, ?)', [API_KEY_LOCK, row.user_id]);
      const count = await ApiKeyModel.query(trx).modify('ofUser', row.user_id).resultSize();
      if (count >= max) return undefined;
      return plain(await ApiKeyModel.query(trx).insert(row).returning('*'));
    });
  }

  async deleteForUser(userId: number, id: number): Promise<boolean> {
    return (await ApiKeyModel.query(this.knex).modify('ofUser', userId).deleteById(id)) === 1;
  }

  async touch(id: number, now: Date): Promise<void> {
    // At most one write a minute per key: authentication stays a read on busy keys.
    await ApiKeyModel.query(this.knex)
      .findById(id)
      .where((w) =>
        w.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now.getTime() - 60_000)),
      )
      .patch({ last_used_at: now });
  }
}
