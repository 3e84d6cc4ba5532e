import type { Knex } from 'knex';
import { isForeignKeyViolation } from '../../framework/db-errors.js';
import { AppError, notFound } from '../../framework/errors.js';
import type { AccountsRepository } from './accounts-repository.js';
import type { LedgerKind, LedgerLine, LedgerRepository, PaymentMethod } from './ledger-repository.js';

export type { LedgerKind, LedgerLine, LedgerRow, PaymentMethod } from './ledger-repository.js';

/** A user's charges of one settlement: one ledger row, its containers' charges as its lines. */
export interface SettlementCharge {
  userId: number;
  /** In the order they were settled; each a debit (negative amount_fen). */
  lines: LedgerLine[];
}

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

export const insufficientBalance = (detail = '余额不足，请先充值') =>
  new AppError(402, 'INSUFFICIENT_BALANCE', detail);

/**
 * Lock order, everywhere money moves: the user's account row first, then the rows of the operation (meter,
 * order, payment, coupon). Every path follows it, so concurrent postings never deadlock.
 *
 * The one ledger. A posting locks the user's account row (SELECT … FOR UPDATE), writes the ledger row and
 * the new balance in the caller's transaction: the balance always equals the sum of the ledger.
 */
export class Ledger {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly entries: LedgerRepository,
  ) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.accounts.transaction(fn);
  }

  /**
   * The balance, with the user's account row (billing_accounts) locked until the transaction
   * ends. A user without a row yet (one created before any posting) gets it here.
   */
  async lockBalance(trx: Knex.Transaction, userId: number): Promise<number> {
    let balance = await this.accounts.lockBalance(trx, userId);
    if (balance === undefined) {
      const created = await this.accounts.create(trx, userId).catch((err: unknown) => {
        // The foreign key names a user that does not exist.
        if (isForeignKeyViolation(err)) throw notFound('用户不存在', 'USER_NOT_FOUND');
        throw err;
      });
      balance = created ? 0 : await this.accounts.lockBalance(trx, userId);
      // Created by a concurrent posting, then gone (the user deleted meanwhile).
      if (balance === undefined) throw new Error(`the billing account of user ${userId} is gone`);
    }
    return Number(balance);
  }

  /**
   * The balances of these users (see lockBalance), their account rows locked in user order until
   * the transaction ends: a settlement's batch of users.
   */
  lockBalances(trx: Knex.Transaction, userIds: number[]): Promise<Map<number, number>> {
    return this.accounts.lockBalances(trx, userIds);
  }

  /**
   * Books a settlement's charges, their users' rows locked by lockBalances in this transaction
   * (`balances` is what it answered): per user one ledger row for the total, the containers'
   * charges kept as its lines (a row of one line is that container's, as a posting would be),
   * and the new balance. Three statements for any number of users.
   */
  async postSettlement(
    trx: Knex.Transaction,
    balances: Map<number, number>,
    charges: SettlementCharge[],
  ): Promise<void> {
    const rows = charges
      .filter((c) => c.lines.length > 0)
      .map((c) => {
        const balance = balances.get(c.userId);
        if (balance === undefined) throw new Error(`the account of user ${c.userId} is not locked`);
        const amount = c.lines.reduce((sum, l) => sum + l.amount_fen, 0);
        if (!Number.isSafeInteger(amount)) throw new Error(`not whole fen: ${amount}`);
        const only = c.lines.length === 1 ? c.lines[0] : undefined;
        return {
          user_id: c.userId,
          amount_fen: amount,
          balance_after_fen: balance + amount,
          kind: 'expense' as const,
          description: (only ? only.description : `按量计费（${c.lines.length}个容器）`).slice(0, 255),
          payment_method: 'balance' as const,
          container_id: only?.container_id ?? null,
          order_id: only?.order_id ?? null,
          payment_id: null,
          coupon_id: null,
          admin_id: null,
          billed_seconds: c.lines.reduce((sum, l) => sum + (l.billed_seconds ?? 0), 0),
          lines: c.lines.map((l) => ({ ...l, description: l.description.slice(0, 255) })),
        };
      });
    if (rows.length === 0) return;
    await this.entries.insertSettlement(trx, rows);
    await this.accounts.setBalances(
      trx,
      rows.map((r) => ({ userId: r.user_id, balanceFen: r.balance_after_fen })),
    );
    for (const r of rows) balances.set(r.user_id, r.balance_after_fen);
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
    const id = await this.entries.insert(trx, {
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
    });
    if (id === undefined) return undefined;
    // Back above the alert threshold: the next drop below it warns again.
    await this.accounts.setBalance(trx, p.userId, after);
    return { id, balanceAfterFen: after };
  }

  /** The balance (zero for a user without an account row yet). */
  async balance(userId: number): Promise<number> {
    return Number((await this.accounts.balance(userId)) ?? 0);
  }

  /** The balances of these users, zero for those without an account row yet. */
  async balances(userIds: number[]): Promise<Map<number, number>> {
    const found = new Map<number, number>(userIds.map((id) => [id, 0]));
    if (userIds.length === 0) return found;
    for (const r of await this.accounts.balances(userIds))
      found.set(Number(r.user_id), Number(r.balance_fen));
    return found;
  }

  sum(userId: number): Promise<number> {
    return this.entries.sum(userId);
  }
}
