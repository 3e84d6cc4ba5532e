import type { Knex } from 'knex';
import { badRequest, conflict, notFound } from '../../framework/errors.js';
import type { Ledger } from './ledger.js';
import { iso, yuan } from './numbers.js';

export type CouponStatus = 'unused' | 'used' | 'expired';

interface CouponRow {
  id: number;
  user_id: number;
  name: string;
  amount_fen: number;
  min_amount_fen: number;
  expires_at: Date;
  status: 'unused' | 'used';
  selected_at: Date | null;
  used_at: Date | null;
  used_for: string | null;
  created_by: number | null;
  created_at: Date;
}

export interface CouponView {
  id: number;
  name: string;
  amount: number;
  minAmount: number;
  expireDate: string;
  status: CouponStatus;
  /** Marked with 'use': applied at the next purchase or top-up reaching minAmount. */
  selected: boolean;
  used_at: string | null;
  used_for: string | null;
  username?: string;
}

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

function whereStatus(q: Knex.QueryBuilder, status: CouponStatus | undefined, now: Date) {
  if (status === 'used') q.where('coupons.status', 'used');
  else if (status === 'unused') q.where('coupons.status', 'unused').where('coupons.expires_at', '>', now);
  else if (status === 'expired') q.where('coupons.status', 'unused').where('coupons.expires_at', '<=', now);
}

/** Coupons (卡券): granted by admins, marked with 'use', applied once to a purchase or top-up. */
export class CouponsService {
  constructor(
    private readonly knex: Knex,
    private readonly ledger: Ledger,
  ) {}

  async list(userId: number, filter: { page: number; pageSize: number; status?: CouponStatus | undefined }) {
    const now = new Date();
    const q = this.knex<CouponRow>('coupons').where('user_id', userId);
    whereStatus(q, filter.status, now);
    const [rows, counted] = await Promise.all([
      q
        .clone()
        .select('*')
        .orderBy('id', 'desc')
        .offset((filter.page - 1) * filter.pageSize)
        .limit(filter.pageSize),
      q.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return {
      items: (rows as CouponRow[]).map((c) => couponView(c, now)),
      total: Number(counted[0]?.count ?? 0),
    };
  }

  async availableCount(userId: number): Promise<number> {
    const [row] = await this.knex('coupons')
      .where({ user_id: userId, status: 'unused' })
      .where('expires_at', '>', new Date())
      .count<{ count: string }[]>({ count: '*' });
    return Number(row?.count ?? 0);
  }

  /** 'use': this coupon (and no other) applies at the next purchase or top-up reaching its minimum. */
  async select(userId: number, id: number): Promise<CouponView> {
    return this.knex.transaction(async (trx) => {
      await this.ledger.lockBalance(trx, userId);
      const c = await trx<CouponRow>('coupons').where({ id, user_id: userId }).forUpdate().first();
      if (!c) throw notFound('卡券不存在', 'COUPON_NOT_FOUND');
      const now = new Date();
      if (c.status === 'used') throw conflict('该卡券已使用', 'COUPON_USED');
      if (c.expires_at <= now) throw conflict('该卡券已过期', 'COUPON_EXPIRED');
      await trx('coupons').where({ user_id: userId }).whereNot({ id }).update({ selected_at: null });
      const [row] = await trx('coupons').where({ id }).update({ selected_at: now }).returning('*');
      return couponView(row as CouponRow, now);
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
    const c = await trx<CouponRow>('coupons')
      .where({ user_id: p.userId, status: 'unused' })
      .whereNotNull('selected_at')
      .where('expires_at', '>', now)
      .where('min_amount_fen', '<=', p.amountFen)
      .orderBy('selected_at', 'desc')
      .forUpdate()
      .first();
    if (!c) return 0;
    await trx('coupons').where({ id: c.id }).update({ status: 'used', used_at: now, used_for: p.usedFor });
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
    const credits = await trx('ledger_entries')
      .where({ order_id: order.id, kind: 'coupon' })
      .where('amount_fen', '>', 0)
      .whereNotNull('coupon_id')
      .select('coupon_id', 'amount_fen');
    for (const credit of credits) {
      const couponId = Number(credit.coupon_id);
      const posted = await this.ledger.post(trx, {
        userId: order.user_id,
        amountFen: -Number(credit.amount_fen),
        kind: 'coupon',
        description: `退回卡券：订单 ${order.order_no} 创建失败`,
        paymentMethod: 'system',
        couponId,
        orderId: order.id,
        uniqueKey: `coupon-return:${couponId}:o${order.id}`,
      });
      if (posted) {
        await trx('coupons')
          .where({ id: couponId, status: 'used' })
          .update({ status: 'unused', used_at: null, used_for: null, selected_at: new Date() });
      }
    }
  }

  // ------------------------------------------------------------------ admin

  async grant(
    adminId: number,
    p: { name: string; amountFen: number; minAmountFen: number; expiresAt: Date; usernames: string[] },
  ): Promise<{ created: number }> {
    if (p.expiresAt <= new Date()) throw badRequest('过期时间必须晚于当前时间', 'COUPON_EXPIRY');
    const users = await this.knex('users').whereIn('username', p.usernames).select('id', 'username');
    const missing = p.usernames.filter((u) => !users.some((x: { username: string }) => x.username === u));
    if (missing.length > 0) throw badRequest(`用户不存在：${missing.join('、')}`, 'USER_NOT_FOUND');
    await this.knex('coupons').insert(
      users.map((u: { id: number }) => ({
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
  }) {
    const now = new Date();
    const q = this.knex('coupons').join('users', 'users.id', 'coupons.user_id');
    whereStatus(q, filter.status, now);
    if (filter.username) q.whereILike('users.username', `%${filter.username.replace(/[%_\\]/g, '\\$&')}%`);
    const [rows, counted] = await Promise.all([
      q
        .clone()
        .select('coupons.*', 'users.username')
        .orderBy('coupons.id', 'desc')
        .offset((filter.page - 1) * filter.size)
        .limit(filter.size),
      q.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return {
      items: (rows as (CouponRow & { username: string })[]).map((c) => couponView(c, now)),
      total: Number(counted[0]?.count ?? 0),
    };
  }

  async revoke(id: number): Promise<void> {
    const deleted = await this.knex('coupons').where({ id, status: 'unused' }).delete();
    if (deleted === 0) throw conflict('只能删除未使用的卡券', 'COUPON_NOT_REVOCABLE');
  }
}
