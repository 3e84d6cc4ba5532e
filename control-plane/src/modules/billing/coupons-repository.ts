import type { Knex } from 'knex';
import { CouponModel, type CouponRow, type CouponStatus } from './model.js';

export type { CouponRow, CouponStatus } from './model.js';

/** A coupon an admin grants (one row per user). */
export type NewCoupon = Pick<
  CouponRow,
  'user_id' | 'name' | 'amount_fen' | 'min_amount_fen' | 'expires_at' | 'created_by'
>;

const plain = (model: CouponModel): CouponRow => ({ ...model.toJSON() }) as CouponRow;

/** Owns coupons. Writes that move money run in the caller's transaction, after the account lock. */
export class CouponsRepository {
  constructor(private readonly knex: Knex) {}

  /** A page of coupons, newest first: one user's, or of these users, or all (an admin's). */
  async page(filter: {
    userId?: number | undefined;
    userIds?: number[] | undefined;
    status?: CouponStatus | undefined;
    now: Date;
    offset: number;
    limit: number;
  }): Promise<{ items: CouponRow[]; total: number }> {
    const q = CouponModel.query(this.knex).modify('withStatus', filter.status, filter.now);
    if (filter.userId !== undefined) q.modify('ofUser', filter.userId);
    if (filter.userIds) q.whereIn('coupons.user_id', filter.userIds);
    const [rows, total] = await Promise.all([
      q.clone().orderBy('coupons.id', 'desc').offset(filter.offset).limit(filter.limit),
      q.clone().resultSize(),
    ]);
    return { items: rows.map(plain), total };
  }

  /** How many of the user's coupons can be used at `now` (unused, not expired). */
  countAvailable(userId: number, now: Date): Promise<number> {
    return CouponModel.query(this.knex)
      .modify('ofUser', userId)
      .modify('withStatus', 'unused', now)
      .resultSize();
  }

  /** The user's coupon, locked until the transaction ends. */
  async lockOwn(trx: Knex.Transaction, userId: number, id: number): Promise<CouponRow | undefined> {
    const row = await CouponModel.query(trx).where({ id, user_id: userId }).forUpdate().first();
    return row && plain(row);
  }

  /** Marks this coupon (and no other of the user's) for the next purchase or top-up. */
  async select(trx: Knex.Transaction, userId: number, id: number, now: Date): Promise<CouponRow> {
    await CouponModel.query(trx).modify('ofUser', userId).whereNot({ id }).patch({ selected_at: null });
    const [row] = await CouponModel.query(trx).where({ id }).patch({ selected_at: now }).returning('*');
    return plain(row as CouponModel);
  }

  /**
   * The coupon the user selected that applies to `amountFen` at `now` (unused, not expired, its
   * minimum reached), locked until the transaction ends.
   */
  async lockSelected(
    trx: Knex.Transaction,
    userId: number,
    amountFen: number,
    now: Date,
  ): Promise<CouponRow | undefined> {
    const row = await CouponModel.query(trx)
      .modify('ofUser', userId)
      .modify('withStatus', 'unused', now)
      .whereNotNull('selected_at')
      .where('min_amount_fen', '<=', amountFen)
      .orderBy('selected_at', 'desc')
      .forUpdate()
      .first();
    return row && plain(row);
  }

  async markUsed(trx: Knex.Transaction, id: number, usedFor: string, now: Date): Promise<void> {
    await CouponModel.query(trx).findById(id).patch({ status: 'used', used_at: now, used_for: usedFor });
  }

  /** A used coupon given back: unused again, and selected for the next purchase. */
  async giveBack(trx: Knex.Transaction, id: number, now: Date): Promise<void> {
    await CouponModel.query(trx)
      .where({ id, status: 'used' })
      .patch({ status: 'unused', used_at: null, used_for: null, selected_at: now });
  }

  async insertMany(rows: NewCoupon[]): Promise<void> {
    await CouponModel.query(this.knex).insert(rows);
  }

  /** Deletes the coupon unless it was used; false when nothing was deleted. */
  async deleteUnused(id: number): Promise<boolean> {
    return (await CouponModel.query(this.knex).where({ id, status: 'unused' }).delete()) > 0;
  }
}
