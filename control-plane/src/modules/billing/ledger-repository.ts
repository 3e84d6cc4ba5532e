import type { Knex } from 'knex';
import { raw } from 'objection';
import { LedgerEntryModel, type LedgerRow } from './model.js';

export type { LedgerKind, LedgerRow, PaymentMethod } from './model.js';

/** A ledger row to write: what the posting says, with the balance after it. */
export type NewLedgerEntry = Omit<LedgerRow, 'id' | 'created_at'> & { unique_key: string | null };

/**
 * A line of a ledger row (ledger_lines): one container's charge of a settlement, the row being
 * the user's total.
 */
export interface LedgerLine {
  container_id: string;
  order_id: number | null;
  /** Signed fen, as the row's amount: a row's lines sum to it. */
  amount_fen: number;
  billed_seconds: number | null;
  description: string;
}

/** A ledger row as the transactions screen lists it, with its order's number. */
export type LedgerRowWithOrder = LedgerRow & { order_no: string | null };

/**
 * Owns ledger_entries. Rows are only ever added, in the transaction that locked the user's
 * account row (see Ledger).
 */
export class LedgerRepository {
  constructor(private readonly knex: Knex) {}

  /** The new row's id; undefined when its unique_key was booked before (nothing is written then). */
  async insert(trx: Knex.Transaction, row: NewLedgerEntry): Promise<number | undefined> {
    const inserted = await LedgerEntryModel.query(trx)
      .insert(row)
      .onConflict('unique_key')
      .ignore()
      .returning('id');
    // Nothing returned (booked before): Objection hands back the model it was given, id-less.
    return inserted.id;
  }

  async sum(userId: number): Promise<number> {
    const row = (await LedgerEntryModel.query(this.knex)
      .modify('ofUser', userId)
      .sum('amount_fen as sum')
      .first()) as unknown as { sum: string | number | null } | undefined;
    return Number(row?.sum ?? 0);
  }

  /** The coupon credits booked on an order (their coupons and amounts). */
  async couponCredits(
    trx: Knex.Transaction,
    orderId: number,
  ): Promise<{ coupon_id: number; amount_fen: number }[]> {
    const rows = await LedgerEntryModel.query(trx)
      .where({ order_id: orderId })
      .modify('couponCredits')
      .select('coupon_id', 'amount_fen');
    return rows.map((r) => ({ coupon_id: Number(r.coupon_id), amount_fen: Number(r.amount_fen) }));
  }

  /** What a user spent (expenses less refunds) and recharged, in fen. */
  async statistics(userId: number): Promise<{ expenseFen: number; rechargeFen: number }> {
    const row = (await LedgerEntryModel.query(this.knex)
      .modify('ofUser', userId)
      .select(
        raw(
          "coalesce(sum(case when kind = 'expense' then -amount_fen when kind = 'refund' then -amount_fen else 0 end), 0)::bigint as expense",
        ),
        raw("coalesce(sum(case when kind = 'recharge' then amount_fen else 0 end), 0)::bigint as recharge"),
      )
      .first()) as unknown as { expense: number | null; recharge: number | null } | undefined;
    return { expenseFen: Number(row?.expense ?? 0), rechargeFen: Number(row?.recharge ?? 0) };
  }

  /** A user's ledger rows, newest first, with their orders' numbers; money in or out only when asked. */
  async page(filter: {
    userId: number;
    type?: 'income' | 'expense' | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: LedgerRowWithOrder[]; total: number }> {
    const q = LedgerEntryModel.query(this.knex).leftJoinRelated('order').modify('ofUser', filter.userId);
    if (filter.type === 'income') q.modify('income');
    if (filter.type === 'expense') q.modify('expense');
    const [rows, total] = await Promise.all([
      q
        .clone()
        .select('ledger_entries.*', 'order.order_no')
        .orderBy('ledger_entries.id', 'desc')
        .offset(filter.offset)
        .limit(filter.limit),
      q.clone().resultSize(),
    ]);
    return { items: rows.map((r) => ({ ...r.toJSON() }) as unknown as LedgerRowWithOrder), total };
  }
}
