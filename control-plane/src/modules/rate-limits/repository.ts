import type { Knex } from 'knex';

/** Owns rate_limit_counters: one row per key and fixed window, shared by every replica. */
export class RateLimitsRepository {
  constructor(private readonly knex: Knex) {}

  /** Adds one to the window's counter atomically and returns the new count. */
  async increment(key: string, windowStart: Date, expiresAt: Date): Promise<number> {
    const result = await this.knex.raw<{ rows: { count: number }[] }>(
      `insert into rate_limit_counters (key, window_start, count, expires_at) values (?, ?, 1, ?)
       on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
       returning count`,
      [key, windowStart, expiresAt],
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  async count(key: string, windowStart: Date): Promise<number> {
    const row = await this.knex('rate_limit_counters')
      .where({ key, window_start: windowStart })
      .first<{ count: number } | undefined>('count');
    return row ? Number(row.count) : 0;
  }

  async clear(key: string): Promise<void> {
    await this.knex('rate_limit_counters').where({ key }).delete();
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.knex('rate_limit_counters').where('expires_at', '<', now).delete();
  }
}
