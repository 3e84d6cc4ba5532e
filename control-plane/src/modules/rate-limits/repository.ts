import type { Knex } from 'knex';
import { raw } from 'objection';
import { RateLimitCounterModel } from './model.js';

/** Owns rate_limit_counters: one row per key and fixed window, shared by every replica. */
export class RateLimitsRepository {
  constructor(private readonly knex: Knex) {}

  /** Adds one to the window's counter atomically and returns the new count. */
  async increment(key: string, windowStart: Date, expiresAt: Date): Promise<number> {
    const row = await RateLimitCounterModel.query(this.knex)
      .insert({ key, window_start: windowStart, count: 1, expires_at: expiresAt })
      .onConflict(['key', 'window_start'])
      .merge({ count: raw('rate_limit_counters.count + 1') })
      .returning('count');
    return Number(row.count ?? 0);
  }

  /** The counts of the window starting at `windowStart` and of the one before it. */
  async counts(
    key: string,
    windowStart: Date,
    previousStart: Date,
  ): Promise<{ current: number; previous: number }> {
    const rows = await RateLimitCounterModel.query(this.knex)
      .where('key', key)
      .whereIn('window_start', [windowStart, previousStart])
      .select('window_start', 'count');
    const of = (start: Date) =>
      Number(rows.find((r) => r.window_start.getTime() === start.getTime())?.count ?? 0);
    return { current: of(windowStart), previous: of(previousStart) };
  }

  async clear(key: string): Promise<void> {
    await RateLimitCounterModel.query(this.knex).where({ key }).delete();
  }

  async deleteExpired(now: Date): Promise<void> {
    await RateLimitCounterModel.query(this.knex).where('expires_at', '<', now).delete();
  }
}
