import type { Knex } from 'knex';
import { badRequest, conflict, notFound } from '../../framework/errors.js';
import type { CouponListReply, CouponReply, GrantedCouponsReply } from './contract.js';
import type { CouponRow, CouponStatus, CouponsRepository } from './coupons-repository.js';
import type { Ledger } from './ledger.js';
import type { LedgerRepository } from './ledger-repository.js';
import { iso, yuan } from './numbers.js';
import { type BillingUsers, withUsernames } from './ports.js';

export type { CouponStatus } from './coupons-repository.js';

/** A coupon as listed (the shape lives in contract.ts). */
export type CouponView = CouponReply;

function couponView(c: CouponRow & { username?: string }, now: Date): CouponView {
  const status: CouponStatus = c.status === 'used' ? 'used' : c.expires_at <= now ? 'expired' : 'unused';
  return {
    id: c.id,
    name: c.name,
    amount: yuan(c.amount_fen),
    minAmount: yuan(c.min_amount_fen),
    expireDate: c.expires_at.toISOString(),
    status,
    selected: status === 'unused' && c.selected_at !== null,
    used_at: iso(c.used_at),
    used_for: c.used_for,
    ...(c.username !== undefined ? { username: c.username } : {}),
  };
}

/** Coupons (卡券): granted by admins, marked with 'use', applied once to a purchase or top-up. */
export class CouponsService {
  constructor(
    private readonly repo: CouponsRepository,
    private readonly entries: LedgerRepository,
    private readonly ledger: Ledger,
    private readonly users: Pick<BillingUsers, 'usernames' | 'idsMatching' | 'byUsernames'>,
  ) {}

  async list(
    userId: number,
    filter: { page: number; pageSize: number; status?: CouponStatus | undefined },
  ): Promise<CouponListReply> {
    const now = new Date();
    const { items, total } = await this.repo.page({
      userId,
      status: filter.status,
      now,
      offset: (filter.page - 1) * filter.pageSize,
      limit: filter.pageSize,
    });
    return { items: items.map((c) => couponView(c, now)), total };
  }

  availableCount(userId: number): Promise<number> {
    return this.repo.countAvailable(userId, new Date());
  }

  /** 'use': this coupon (and no other) applies at the next purchase or top-up reaching its minimum. */
  async select(userId: number, id: number): Promise<CouponView> {
    return this.ledger.transaction(async (trx) => {
      await this.ledger.lockBalance(trx, userId);
      const c = await this.repo.lockOwn(trx, userId, id);
      if (!c) throw notFound('卡券不存在', 'COUPON_NOT_FOUND');
      const now = new Date();
      if (c.status === 'used') throw conflict('该卡券已使用', 'COUPON_USED');
      if (c.expires_at <= now) throw conflict('该卡券已过期', 'COUPON_EXPIRED');
      return couponView(await this.repo.select(trx, userId, id, now), now);
    });
  }

  /**
   * Applies the user's selected coupon to an amount (a purchase or top-up) in the caller's
   * transaction: a credit booked in the ledger, the coupon marked used. Returns the credit.
   */
  async applySelected(
    trx: Knex.Transaction,
    p: { userId: number; amountFen: number; usedFor: string; orderId?: number; paymentId?: number },
  ): Promise<number> {
    const now = new Date();
    const c = await this.repo.lockSelected(trx, p.userId, p.amountFen, now);
    if (!c) return 0;
    await this.repo.markUsed(trx, c.id, p.usedFor, now);
    await this.ledger.post(trx, {
      userId: p.userId,
      amountFen: c.amount_fen,
      kind: 'coupon',
      description: `使用卡券：${c.name}`,
      paymentMethod: 'system',
      couponId: c.id,
      orderId: p.orderId,
      paymentId: p.paymentId,
      // One credit per coupon and use: a coupon given back (a failed purchase) can be used again.
      uniqueKey: `coupon:${c.id}:${p.orderId !== undefined ? `o${p.orderId}` : `p${p.paymentId}`}`,
    });
    return c.amount_fen;
  }

  /**
   * Gives back the coupons an order used (its container could not be created): their credit
   * leaves the balance again and they are unused, still selected for the next purchase.
   */
  async returnForOrder(trx: Knex.Transaction, order: { id: number; order_no: string; user_id: number }) {
    const credits = await this.entries.couponCredits(trx, order.id);
    for (const credit of credits) {
      const couponId = credit.coupon_id;
      const posted = await this.ledger.post(trx, {
        userId: order.user_id,
        amountFen: -credit.amount_fen,
        kind: 'coupon',
        description: `退回卡券：订单 ${order.order_no} 创建失败`,
        paymentMethod: 'system',
        couponId,
        orderId: order.id,
        uniqueKey: `coupon-return:${couponId}:o${order.id}`,
      });
      if (posted) await this.repo.giveBack(trx, couponId, new Date());
    }
  }

  // ------------------------------------------------------------------ admin

  async grant(
    adminId: number,
    p: { name: string; amountFen: number; minAmountFen: number; expiresAt: Date; usernames: string[] },
  ): Promise<GrantedCouponsReply> {
    if (p.expiresAt <= new Date()) throw badRequest('过期时间必须晚于当前时间', 'COUPON_EXPIRY');
    const users = await this.users.byUsernames(p.usernames);
    const missing = p.usernames.filter((u) => !users.some((x) => x.username === u));
    if (missing.length > 0) throw badRequest(`用户不存在：${missing.join('、')}`, 'USER_NOT_FOUND');
    await this.repo.insertMany(
      users.map((u) => ({
        user_id: u.id,
        name: p.name,
        amount_fen: p.amountFen,
        min_amount_fen: p.minAmountFen,
        expires_at: p.expiresAt,
        created_by: adminId,
      })),
    );
    return { created: users.length };
  }

  async listAll(filter: {
    page: number;
    size: number;
    status?: CouponStatus | undefined;
    username?: string | undefined;
  }): Promise<CouponListReply> {
    const now = new Date();
    const userIds = filter.username ? await this.users.idsMatching(filter.username) : undefined;
    if (userIds?.length === 0) return { items: [], total: 0 };
    const { items, total } = await this.repo.page({
      userIds,
      status: filter.status,
      now,
      offset: (filter.page - 1) * filter.size,
      limit: filter.size,
    });
    return { items: (await withUsernames(this.users, items)).map((c) => couponView(c, now)), total };
  }

  async revoke(id: number): Promise<void> {
    if (!(await this.repo.deleteUnused(id))) throw conflict('只能删除未使用的卡券', 'COUPON_NOT_REVOCABLE');
  }
}
