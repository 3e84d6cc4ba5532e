import type { Knex } from 'knex';

export type PaymentStatus = 'pending' | 'success' | 'failed' | 'closed';

export interface PaymentRow {
  id: number;
  out_trade_no: string;
  user_id: number;
  amount_fen: number;
  provider: 'wechat' | 'sandbox';
  status: PaymentStatus;
  trade_state: string;
  code_url: string | null;
  transaction_id: string | null;
  description: string;
  order_id: number | null;
  created_at: Date;
  paid_at: Date | null;
  closed_at: Date | null;
}

/** Owns payments. */
export class PaymentsRepository {
  constructor(private readonly knex: Knex) {}

  async insert(
    row: Pick<
      PaymentRow,
      'out_trade_no' | 'user_id' | 'amount_fen' | 'provider' | 'description' | 'order_id'
    >,
  ) {
    const [inserted] = await this.knex('payments').insert(row).returning('*');
    return inserted as PaymentRow;
  }

  findByTradeNo(outTradeNo: string, trx?: Knex.Transaction): Promise<PaymentRow | undefined> {
    return (trx ?? this.knex)('payments').where({ out_trade_no: outTradeNo }).first();
  }

  lockByTradeNo(trx: Knex.Transaction, outTradeNo: string): Promise<PaymentRow | undefined> {
    return trx('payments').where({ out_trade_no: outTradeNo }).forUpdate().first();
  }

  async update(id: number, values: Partial<Omit<PaymentRow, 'id'>>, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('payments').where({ id }).update(values);
  }

  /** Pending payments created before `before` (their QR codes have expired). */
  stalePending(before: Date, limit = 50): Promise<PaymentRow[]> {
    return this.knex('payments')
      .where({ status: 'pending' })
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(limit);
  }

  /** The newest open payment of an order (to show its QR again). */
  pendingForOrder(orderId: number): Promise<PaymentRow | undefined> {
    return this.knex('payments')
      .where({ order_id: orderId, status: 'pending' })
      .orderBy('id', 'desc')
      .first();
  }

  async listAll(filter: {
    offset: number;
    limit: number;
    status?: PaymentStatus | undefined;
    username?: string | undefined;
  }) {
    const q = this.knex('payments').join('users', 'users.id', 'payments.user_id');
    if (filter.status) q.where('payments.status', filter.status);
    if (filter.username) q.whereILike('users.username', `%${filter.username.replace(/[%_\\]/g, '\\$&')}%`);
    const [items, counted] = await Promise.all([
      q
        .clone()
        .select('payments.*', 'users.username')
        .orderBy('payments.id', 'desc')
        .offset(filter.offset)
        .limit(filter.limit),
      q.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return { items: items as (PaymentRow & { username: string })[], total: Number(counted[0]?.count ?? 0) };
  }
}
