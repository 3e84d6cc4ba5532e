import type { Knex } from 'knex';
import { isForeignKeyViolation } from '../../framework/db-errors.js';
import { AppError, notFound } from '../../framework/errors.js';
import type { AccountsRepository } from './accounts-repository.js';
import type { LedgerKind, LedgerRepository, PaymentMethod } from './ledger-repository.js';

export type { LedgerKind, LedgerLine, LedgerRow, PaymentMethod } from './ledger-repository.js';

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
   * The balances after a settlement's batch (SettlementRepository.settleBatch booked its ledger
   * rows, these their balance_after_fen), the users' rows locked by lockBalances in this
   * transaction: one statement for any number of users. The one writer of a settlement's balances.
   */
  async setSettledBalances(
    trx: Knex.Transaction,
    balances: { userId: number; balanceFen: number }[],
  ): Promise<void> {
    if (balances.length === 0) return;
    await this.accounts.setBalances(trx, balances);
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
