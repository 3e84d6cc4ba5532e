import type { Knex } from 'knex';
import { raw } from 'objection';
import { type Prepared, preparedRows } from '../../db/prepared.js';
import { sqlArray } from '../../db/sql-arrays.js';
import { BillingAccountModel } from './model.js';

const BALANCE_STATEMENT: Prepared = {
  name: 'billing_accounts_balance',
  text: 'select balance_fen, alert_threshold_fen from billing_accounts where user_id = $1',
};

/** A user whose balance fell below the alert threshold, to be warned. */
export interface LowBalance {
  id: number;
  balance_fen: number;
  alert_threshold_fen: number;
}

/**
 * Owns billing_accounts: a user's balance (written by the ledger only, in the posting's
 * transaction), the alert threshold and when the low-balance warning went out. Queries run on
 * this repository's knex (or the caller's transaction), not Objection's global one.
 */
export class AccountsRepository {
  constructor(private readonly knex: Knex) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(fn);
  }

  /** The balance with the account row locked (FOR UPDATE) until the transaction ends; undefined without a row. */
  async lockBalance(trx: Knex.Transaction, userId: number): Promise<number | undefined> {
    const row = await BillingAccountModel.query(trx)
      .select('balance_fen')
      .where({ user_id: userId })
      .forUpdate()
      .first();
    return row?.balance_fen;
  }

  /**
   * The balances of these users with their account rows locked (FOR UPDATE, in user order: two
   * settlements lock the same rows in the same order) until the transaction ends. Users without
   * a row get one (balance zero) first.
   */
  async lockBalances(trx: Knex.Transaction, userIds: number[]): Promise<Map<number, number>> {
    const lock = async (ids: number[]) => {
      const { rows } = await trx.raw<{ rows: { user_id: number; balance_fen: number }[] }>(
        `select user_id, balance_fen from billing_accounts where user_id = any(?::bigint[])
          order by user_id for update`,
        [sqlArray(ids)],
      );
      return rows;
    };
    const found = new Map<number, number>();
    for (const r of await lock(userIds)) found.set(Number(r.user_id), Number(r.balance_fen));
    const missing = userIds.filter((id) => !found.has(id));
    if (missing.length > 0) {
      await trx.raw(
        'insert into billing_accounts (user_id) select unnest(?::bigint[]) on conflict (user_id) do nothing',
        [sqlArray(missing)],
      );
      for (const r of await lock(missing)) found.set(Number(r.user_id), Number(r.balance_fen));
    }
    return found;
  }

  /** The balances after a settlement's postings (see setBalance), one statement for them all. */
  async setBalances(trx: Knex.Transaction, rows: { userId: number; balanceFen: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await trx.raw(
      `update billing_accounts a set balance_fen = v.balance_fen,
              balance_alert_sent_at = case when v.balance_fen >= a.alert_threshold_fen then null
                                           else a.balance_alert_sent_at end
         from unnest(?::bigint[], ?::bigint[]) as v(user_id, balance_fen)
        where a.user_id = v.user_id`,
      [sqlArray(rows.map((r) => r.userId)), sqlArray(rows.map((r) => r.balanceFen))],
    );
  }

  /**
   * Creates the user's account row (balance zero) unless it exists; true when this call created
   * it (the row is then locked by the insert until the transaction ends). A user that does not
   * exist fails with PostgreSQL's foreign key violation (23503).
   */
  async create(trx: Knex.Transaction, userId: number): Promise<boolean> {
    const created = await BillingAccountModel.query(trx)
      .insert({ user_id: userId })
      .onConflict('user_id')
      .ignore()
      // A column the insert does not name: Objection hands back the model it was given when
      // nothing is returned (the row existed), so only a created row has it.
      .returning('balance_fen');
    return created.balance_fen !== undefined;
  }

  /**
   * The balance after a posting. Back at or above the alert threshold, the warning is cleared:
   * the next drop below it warns again.
   */
  async setBalance(trx: Knex.Transaction, userId: number, balanceFen: number): Promise<void> {
    await BillingAccountModel.query(trx)
      .where({ user_id: userId })
      .patch({
        balance_fen: balanceFen,
        balance_alert_sent_at: raw(
          'CASE WHEN ? >= alert_threshold_fen THEN NULL ELSE balance_alert_sent_at END',
          [balanceFen],
        ),
      });
  }

  /** The balance and the threshold; undefined for a user without a row yet. */
  /** The balance screen's read (every console page asks): a prepared statement, no model. */
  async find(userId: number): Promise<{ balance_fen: number; alert_threshold_fen: number } | undefined> {
    const [row] = await preparedRows<{ balance_fen: number; alert_threshold_fen: number }>(
      this.knex,
      BALANCE_STATEMENT,
      [userId],
    );
    return row && { balance_fen: row.balance_fen, alert_threshold_fen: row.alert_threshold_fen };
  }

  /** The balance; undefined for a user without a row yet. */
  async balance(userId: number): Promise<number | undefined> {
    const row = await BillingAccountModel.query(this.knex)
      .select('balance_fen')
      .where({ user_id: userId })
      .first();
    return row?.balance_fen;
  }

  /** The balances of those of these users that have a row. */
  async balances(userIds: number[]): Promise<{ user_id: number; balance_fen: number }[]> {
    const rows = await BillingAccountModel.query(this.knex)
      .modify('ofUsers', userIds)
      .select('user_id', 'balance_fen');
    return rows.map((r) => ({ user_id: r.user_id, balance_fen: r.balance_fen }));
  }

  /** Sets the threshold (creating the row when missing); a new threshold may warn again. */
  async setAlertThreshold(userId: number, thresholdFen: number): Promise<void> {
    await BillingAccountModel.query(this.knex)
      .insert({ user_id: userId, alert_threshold_fen: thresholdFen })
      .onConflict('user_id')
      .merge({ alert_threshold_fen: thresholdFen, balance_alert_sent_at: null });
  }

  /** Of these users, those due a low-balance warning: marked warned at `now`, and returned. */
  async flagLowBalances(userIds: number[], now: Date): Promise<LowBalance[]> {
    const rows = (await BillingAccountModel.query(this.knex)
      .modify('ofUsers', userIds)
      .modify('dueLowBalanceAlert')
      .patch({ balance_alert_sent_at: now })
      .returning(['user_id as id', 'balance_fen', 'alert_threshold_fen'])) as unknown as {
      toJSON(): object;
    }[];
    return rows.map((r) => ({ ...r.toJSON() }) as LowBalance);
  }

  /** Of these users, those with a balance above zero. */
  async funded(userIds: number[]): Promise<number[]> {
    const rows = await BillingAccountModel.query(this.knex)
      .modify('ofUsers', userIds)
      .modify('funded')
      .select('user_id');
    return rows.map((r) => Number(r.user_id));
  }
}
