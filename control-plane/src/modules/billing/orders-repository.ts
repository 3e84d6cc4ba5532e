import type { Knex } from 'knex';

export type OrderStatus = 'pending' | 'paid' | 'cancelled' | 'completed' | 'running' | 'stopped';
export type OrderType = 'purchase' | 'renewal';

export interface OrderRow {
  id: number;
  order_no: string;
  user_id: number;
  container_id: string;
  order_type: OrderType;
  billing_type: string;
  product_name: string;
  server_name: string;
  gpu_type: string;
  gpu_count: number;
  region: string;
  unit_price_fen: number;
  duration: number;
  amount_fen: number;
  discount_fen: number;
  billed_seconds: number;
  status: OrderStatus;
  start_time: Date | null;
  end_time: Date | null;
  paid_at: Date | null;
  created_at: Date;
}

export type NewOrder = Omit<OrderRow, 'id' | 'created_at' | 'billed_seconds' | 'paid_at'> & {
  paid_at?: Date | null;
};

/** An order with the amount already invoiced (pending or issued invoices). */
export interface OrderWithInvoiced extends OrderRow {
  invoiced_fen: number;
}

/** Owns container_orders. */
export class OrdersRepository {
  constructor(private readonly knex: Knex) {}

  async insert(trx: Knex.Transaction, row: NewOrder): Promise<number> {
    const [inserted] = await trx('container_orders').insert(row).returning('id');
    return inserted.id as number;
  }

  private withInvoiced(k: Knex | Knex.Transaction = this.knex) {
    return k('container_orders').select(
      'container_orders.*',
      k.raw(
        "coalesce((select sum(i.amount_fen) from invoices i where i.order_id = container_orders.id and i.status in ('pending','issued')), 0)::bigint as invoiced_fen",
      ),
    );
  }

  async find(id: number, trx?: Knex.Transaction): Promise<OrderWithInvoiced | undefined> {
    return this.withInvoiced(trx).where('container_orders.id', id).first();
  }

  async lock(trx: Knex.Transaction, id: number): Promise<OrderRow | undefined> {
    return trx('container_orders').where({ id }).forUpdate().first();
  }

  async update(id: number, values: Partial<Omit<OrderRow, 'id'>>, trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('container_orders').where({ id }).update(values);
  }

  /** The order an hourly container's usage is booked on (its purchase order). */
  async usageOrder(trx: Knex.Transaction, containerId: string): Promise<OrderRow | undefined> {
    return trx('container_orders')
      .where({ container_id: containerId, billing_type: 'hourly', order_type: 'purchase' })
      .orderBy('id', 'desc')
      .first();
  }

  /** Orders of a container still open (running, stopped, paid): closed when it is destroyed or expires. */
  async completeOpen(containerId: string, statuses: OrderStatus[], trx?: Knex.Transaction): Promise<void> {
    await (trx ?? this.knex)('container_orders')
      .where({ container_id: containerId })
      .whereIn('status', statuses)
      .update({ status: 'completed', end_time: (trx ?? this.knex).raw('coalesce(end_time, now())') });
  }

  async list(filter: {
    userId: number;
    status?: OrderStatus | 'invoiceable' | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: OrderWithInvoiced[]; total: number }> {
    const q = this.withInvoiced().where('container_orders.user_id', filter.userId);
    if (filter.status === 'invoiceable') {
      q.whereIn('container_orders.status', ['paid', 'running', 'stopped', 'completed']).whereRaw(
        "container_orders.amount_fen > coalesce((select sum(i.amount_fen) from invoices i where i.order_id = container_orders.id and i.status in ('pending','issued')), 0)",
      );
    } else if (filter.status) {
      q.where('container_orders.status', filter.status);
    }
    const count = q.clone().clearSelect().count<{ count: string }[]>({ count: '*' });
    const [items, counted] = await Promise.all([
      q.orderBy('container_orders.id', 'desc').offset(filter.offset).limit(filter.limit),
      count,
    ]);
    return { items, total: Number(counted[0]?.count ?? 0) };
  }

  async listAll(filter: { offset: number; limit: number; userId?: number | undefined }) {
    const q = this.withInvoiced();
    if (filter.userId !== undefined) q.where('container_orders.user_id', filter.userId);
    return q.orderBy('container_orders.id', 'desc').offset(filter.offset).limit(filter.limit) as Promise<
      OrderWithInvoiced[]
    >;
  }
}
