import type { Knex } from 'knex';
import { PaymentModel, type PaymentRow, type PaymentStatus } from './model.js';

export type { PaymentRow, PaymentStatus } from './model.js';

const plain = (model: PaymentModel): PaymentRow => ({ ...model.toJSON() }) as PaymentRow;

/** Owns payments. */
export class PaymentsRepository {
  constructor(private readonly knex: Knex) {}

  async insert(
    row: Pick<
      PaymentRow,
      'out_trade_no' | 'user_id' | 'amount_fen' | 'provider' | 'description' | 'order_id'
    >,
  ): Promise<PaymentRow> {
    const inserted = await PaymentModel.query(this.knex).insert(row).returning('*');
    return plain(inserted);
  }

  async findByTradeNo(outTradeNo: string, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    const row = await PaymentModel.query(trx ?? this.knex)
      .where({ out_trade_no: outTradeNo })
      .first();
    return row && plain(row);
  }

  async lockByTradeNo(trx: Knex.Transaction, outTradeNo: string): Promise<PaymentRow | undefined> {
    const row = await PaymentModel.query(trx).where({ out_trade_no: outTradeNo }).forUpdate().first();
    return row && plain(row);
  }

  async update(id: number, values: Partial<Omit<PaymentRow, 'id'>>, trx?: Knex.Transaction): Promise<void> {
    await PaymentModel.query(trx ?? this.knex)
      .where({ id })
      .patch(values);
  }

  /** Pending payments created before `before` (their QR codes have expired). */
  async stalePending(before: Date, limit = 50): Promise<PaymentRow[]> {
    const rows = await PaymentModel.query(this.knex)
      .modify('pending')
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(limit);
    return rows.map(plain);
  }

  /** The newest open payment of an order (to show its QR again). */
  async pendingForOrder(orderId: number): Promise<PaymentRow | undefined> {
    const row = await PaymentModel.query(this.knex)
      .where({ order_id: orderId })
      .modify('pending')
      .orderBy('id', 'desc')
      .first();
    return row && plain(row);
  }

  /** Every payment, newest first; `userIds` limits it to those users' (an admin's filter). */
  async listAll(filter: {
    offset: number;
    limit: number;
    status?: PaymentStatus | undefined;
    userIds?: number[] | undefined;
  }): Promise<{ items: PaymentRow[]; total: number }> {
    const q = PaymentModel.query(this.knex);
    if (filter.status) q.where('status', filter.status);
    if (filter.userIds) q.whereIn('user_id', filter.userIds);
    const [items, total] = await Promise.all([
      q.clone().orderBy('id', 'desc').offset(filter.offset).limit(filter.limit),
      q.clone().resultSize(),
    ]);
    return { items: items.map(plain), total };
  }
}
