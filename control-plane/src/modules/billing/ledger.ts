import type { Knex } from 'knex';
import { AppError, notFound } from '../../framework/errors.js';

/** What a ledger row is about; the billing records show recharge / expense / refund from it. */
export type LedgerKind = 'recharge' | 'expense' | 'refund' | 'credit' | 'coupon' | 'adjustment';
export type PaymentMethod = 'wechat' | 'alipay' | 'balance' | 'system' | 'other';

export interface Posting {
  userId: number;
  /** Signed fen: positive credits the balance, negative debits it. */
  amountFen: number;
  kind: LedgerKind;
  description: string;
  paymentMethod: PaymentMethod;
  containerId?: string | undefined;
  orderId?: number | undefined;
  paymentId?: number | undefined;
  couponId?: number | undefined;
  adminId?: number | undefined;
  billedSeconds?: number | undefined;
  /** A one-time booking (trial credit, a payment's recharge): a second posting with it is a no-op. */
  uniqueKey?: string | undefined;
  /** Refuses (402) when the balance after the posting would be below this (purchases, renewals). */
  floorFen?: number | undefined;
}

export interface LedgerRow {
  id: number;
  user_id: number;
  amount_fen: number;
  balance_after_fen: number;
  kind: LedgerKind;
  description: string;
  payment_method: PaymentMethod;
  container_id: string | null;
  order_id: number | null;
  payment_id: number | null;
  coupon_id: number | null;
  admin_id: number | null;
  billed_seconds: number | null;
  created_at: Date;
}

export const insufficientBalance = (detail = '余额不足，请先充值') =>
  new AppError(402, 'INSUFFICIENT_BALANCE', detail);

/**
 * Lock order, everywhere money moves: the user's row first, then the rows of the operation (meter,
 * order, payment, coupon). Every path follows it, so concurrent postings never deadlock.
 *
 * The one ledger. A posting locks the user's row (SELECT … FOR UPDATE), writes the ledger row and
 * the new balance in the caller's transaction: the balance always equals the sum of the ledger.
 */
export class Ledger {
  constructor(readonly knex: Knex) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(fn);
  }

  /** The balance, with the user's row locked until the transaction ends. */
  async lockBalance(trx: Knex.Transaction, userId: number): Promise<number> {
    const row = await trx('users').where({ id: userId }).forUpdate().first('balance_fen');
    if (!row) throw notFound('用户不存在', 'USER_NOT_FOUND');
    return Number(row.balance_fen);
  }

  /** Books the posting; undefined when its uniqueKey was booked before (nothing changes then). */
  async post(
    trx: Knex.Transaction,
    p: Posting,
  ): Promise<{ id: number; balanceAfterFen: number } | undefined> {
    if (!Number.isSafeInteger(p.amountFen)) throw new Error(`not whole fen: ${p.amountFen}`);
    const balance = await this.lockBalance(trx, p.userId);
    const after = balance + p.amountFen;
    if (p.floorFen !== undefined && after < p.floorFen) throw insufficientBalance();
    const inserted = await trx('ledger_entries')
      .insert({
        user_id: p.userId,
        amount_fen: p.amountFen,
        balance_after_fen: after,
        kind: p.kind,
        description: p.description.slice(0, 255),
        payment_method: p.paymentMethod,
        container_id: p.containerId ?? null,
        order_id: p.orderId ?? null,
        payment_id: p.paymentId ?? null,
        coupon_id: p.couponId ?? null,
        admin_id: p.adminId ?? null,
        billed_seconds: p.billedSeconds ?? null,
        unique_key: p.uniqueKey ?? null,
      })
      .onConflict('unique_key')
      .ignore()
      .returning('id');
    const id = inserted[0]?.id as number | undefined;
    if (id === undefined) return undefined;
    // Back above the alert threshold: the next drop below it warns again.
    await trx('users')
      .where({ id: p.userId })
      .update({
        balance_fen: after,
        balance_alert_sent_at: trx.raw(
          'CASE WHEN ? >= alert_threshold_fen THEN NULL ELSE balance_alert_sent_at END',
          [after],
        ),
      });
    return { id, balanceAfterFen: after };
  }

  async balance(userId: number): Promise<number> {
    const row = await this.knex('users').where({ id: userId }).first('balance_fen');
    if (!row) throw notFound('用户不存在', 'USER_NOT_FOUND');
    return Number(row.balance_fen);
  }

  async sum(userId: number): Promise<number> {
    const [row] = await this.knex('ledger_entries')
      .where({ user_id: userId })
      .sum<{ sum: string | null }[]>({ sum: 'amount_fen' });
    return Number(row?.sum ?? 0);
  }
}
