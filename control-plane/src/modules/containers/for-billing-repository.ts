import type { Knex } from 'knex';
import { sqlArray } from '../../db/sql-arrays.js';

/** What a settlement reads of a container it meters. */
export interface SettlingContainer {
  id: string;
  name: string;
  status: string;
  billing_type: string;
  stopped_at: Date | null;
  deleted_at: Date | null;
}

/**
 * The containers module's set-based statements for billing's settlement (for-billing.ts hands
 * them over): one statement for any number of containers, in the settlement's transaction.
 */
export class ContainersForBillingRepository {
  /** Of these containers, what a settlement reads (the ones that exist). */
  async settling(trx: Knex.Transaction, ids: string[]): Promise<SettlingContainer[]> {
    if (ids.length === 0) return [];
    const { rows } = await trx.raw<{ rows: SettlingContainer[] }>(
      'select id, name, status, billing_type, stopped_at, deleted_at from containers where id = any(?::varchar[])',
      [sqlArray(ids)],
    );
    return rows;
  }

  /** How many hourly containers run now. */
  async runningHourlyCount(trx: Knex.Transaction): Promise<number> {
    const { rows } = await trx.raw<{ rows: { n: number }[] }>(
      "select count(*)::int as n from containers where billing_type = 'hourly' and status = 'running'",
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The hourly containers that run now, with their owners. */
  async runningHourly(
    trx: Knex.Transaction,
  ): Promise<{ id: string; user_id: number; started_at: Date | null }[]> {
    const { rows } = await trx.raw<{ rows: { id: string; user_id: number; started_at: Date | null }[] }>(
      "select id, user_id, started_at from containers where billing_type = 'hourly' and status = 'running'",
    );
    return rows.map((r) => ({ ...r, user_id: Number(r.user_id) }));
  }

  /** Adds each charge to its container's running total (its 累计费用), in id order. */
  async addCosts(trx: Knex.Transaction, costs: { id: string; fen: number }[]): Promise<void> {
    if (costs.length === 0) return;
    const sorted = [...costs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await trx.raw(
      `update containers c set total_cost_fen = c.total_cost_fen + v.fen
         from unnest(?::varchar[], ?::bigint[]) as v(id, fen)
        where c.id = v.id`,
      [sqlArray(sorted.map((c) => c.id)), sqlArray(sorted.map((c) => c.fen))],
    );
  }
}
