import type { Knex } from 'knex';

export interface ApiKeyRow {
  id: number;
  user_id: number;
  name: string;
  key_hash: string;
  key_encrypted: string;
  key_masked: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** Owns api_keys. */
export class ApiKeysRepository {
  constructor(private readonly knex: Knex) {}

  listForUser(userId: number): Promise<ApiKeyRow[]> {
    return this.knex<ApiKeyRow>('api_keys').where({ user_id: userId }).orderBy('id', 'asc');
  }

  findForUser(userId: number, id: number): Promise<ApiKeyRow | undefined> {
    return this.knex<ApiKeyRow>('api_keys').where({ id, user_id: userId }).first();
  }

  findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    return this.knex<ApiKeyRow>('api_keys').where({ key_hash: keyHash }).first();
  }

  /**
   * Inserts unless the user already has `max` keys. The user's row is locked for the count, so
   * concurrent creations on two replicas cannot pass the limit together. Undefined = limit reached.
   */
  insertBelowLimit(
    row: Omit<ApiKeyRow, 'id' | 'created_at' | 'last_used_at'>,
    max: number,
  ): Promise<ApiKeyRow | undefined> {
    return this.knex.transaction(async (trx) => {
      await trx('users').where({ id: row.user_id }).forUpdate().first('id');
      const counted = await trx('api_keys')
        .where({ user_id: row.user_id })
        .count<{ count: string }[]>({ count: '*' });
      if (Number(counted[0]?.count ?? 0) >= max) return undefined;
      const [inserted] = await trx<ApiKeyRow>('api_keys').insert(row).returning('*');
      return inserted as ApiKeyRow;
    });
  }

  async deleteForUser(userId: number, id: number): Promise<boolean> {
    return (await this.knex('api_keys').where({ id, user_id: userId }).delete()) === 1;
  }

  async touch(id: number, now: Date): Promise<void> {
    // At most one write a minute per key: authentication stays a read on busy keys.
    await this.knex('api_keys')
      .where({ id })
      .where((w) =>
        w.whereNull('last_used_at').orWhere('last_used_at', '<', new Date(now.getTime() - 60_000)),
      )
      .update({ last_used_at: now });
  }
}
