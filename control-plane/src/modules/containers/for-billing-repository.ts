import type { Knex } from 'knex';

/**
 * The containers' part of billing's settlement statement (one WITH chain per batch of users): SQL
 * text about this module's table, without bind parameters, that billing embeds.
 */
export const containersSettlementSql = {
  /** What a settlement reads of the containers it meters. */
  settling: 'select id, name, status, billing_type, stopped_at, deleted_at from containers',
  /** Adds each charge of `source` (id, fen) to its container's running total (its 累计费用). */
  addCosts: (source: string) =>
    `update containers c set total_cost_fen = c.total_cost_fen + s.fen from ${source} s where c.id = s.id`,
} as const;

/**
 * The containers module's set-based statements for billing's settlement (for-billing.ts hands
 * them over): one statement for any number of containers, in the settlement's transaction.
 */
export class ContainersForBillingRepository {
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
}
