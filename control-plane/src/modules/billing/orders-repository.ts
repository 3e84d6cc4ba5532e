import type { Knex } from 'knex';
import { raw } from 'objection';
import { ContainerOrderModel, type OrderRow, type OrderStatus } from './model.js';

export { INVOICEABLE_STATUSES, type OrderRow, type OrderStatus, type OrderType } from './model.js';

export type NewOrder = Omit<OrderRow, 'id' | 'created_at' | 'billed_seconds' | 'paid_at'> & {
  paid_at?: Date | null;
};

/** An order with the amount already invoiced (pending or issued invoices). */
export interface OrderWithInvoiced extends OrderRow {
  invoiced_fen: number;
}

const plain = <T>(model: ContainerOrderModel): T => ({ ...model.toJSON() }) as T;

/** Owns container_orders. */
export class OrdersRepository {
  constructor(private readonly knex: Knex) {}

  async insert(trx: Knex.Transaction, row: NewOrder): Promise<number> {
    const inserted = await ContainerOrderModel.query(trx).insert(row).returning('id');
    return inserted.id;
  }

  async find(id: number, trx?: Knex.Transaction): Promise<OrderWithInvoiced | undefined> {
    const row = await ContainerOrderModel.query(trx ?? this.knex)
      .modify('withInvoiced')
      .where('container_orders.id', id)
      .first();
    return row && plain<OrderWithInvoiced>(row);
  }

  async lock(trx: Knex.Transaction, id: number): Promise<OrderRow | undefined> {
    const row = await ContainerOrderModel.query(trx).where({ id }).forUpdate().first();
    return row && plain<OrderRow>(row);
  }

  async update(id: number, values: Partial<Omit<OrderRow, 'id'>>, trx?: Knex.Transaction): Promise<void> {
    await ContainerOrderModel.query(trx ?? this.knex)
      .where({ id })
      .patch(values);
  }

  /** The usage order shows its meters' totals: charged fen and billed seconds (never a sum of rounded pieces). */
  async recordUsage(trx: Knex.Transaction, id: number): Promise<void> {
    await ContainerOrderModel.query(trx)
      .where({ id })
      .patch({
        amount_fen: raw('(select coalesce(sum(charged_fen), 0) from container_meters where order_id = ?)', [
          id,
        ]),
        billed_seconds: raw(
          '(select coalesce(sum(billed_ms), 0) / 1000 from container_meters where order_id = ?)',
          [id],
        ),
      });
  }

  /** The order an hourly container's usage is booked on (its purchase order). */
  async usageOrder(trx: Knex.Transaction, containerId: string): Promise<OrderRow | undefined> {
    const row = await ContainerOrderModel.query(trx)
      .modify('ofContainer', containerId)
      .where({ billing_type: 'hourly', order_type: 'purchase' })
      .orderBy('id', 'desc')
      .first();
    return row && plain<OrderRow>(row);
  }

  /** The container's purchase order (what it was bought as: product, node, region). */
  async purchaseOf(containerId: string): Promise<OrderRow | undefined> {
    const row = await ContainerOrderModel.query(this.knex)
      .modify('ofContainer', containerId)
      .where({ order_type: 'purchase' })
      .orderBy('id', 'asc')
      .first();
    return row && plain<OrderRow>(row);
  }

  /** Orders of a container still open (running, stopped, paid): closed when it is destroyed or expires. */
  async completeOpen(containerId: string, statuses: OrderStatus[], trx?: Knex.Transaction): Promise<void> {
    await ContainerOrderModel.query(trx ?? this.knex)
      .modify('ofContainer', containerId)
      .whereIn('status', statuses)
      .patch({ status: 'completed', end_time: raw('coalesce(end_time, now())') });
  }

  async list(filter: {
    userId: number;
    status?: OrderStatus | 'invoiceable' | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: OrderWithInvoiced[]; total: number }> {
    const q = ContainerOrderModel.query(this.knex).modify('ofUser', filter.userId);
    if (filter.status === 'invoiceable') q.modify('invoiceable');
    else if (filter.status) q.where('container_orders.status', filter.status);
    const [rows, total] = await Promise.all([
      q
        .clone()
        .modify('withInvoiced')
        .orderBy('container_orders.id', 'desc')
        .offset(filter.offset)
        .limit(filter.limit),
      q.clone().resultSize(),
    ]);
    return { items: rows.map((r) => plain<OrderWithInvoiced>(r)), total };
  }

  async listAll(filter: { offset: number; limit: number; userId?: number | undefined }) {
    const q = ContainerOrderModel.query(this.knex).modify('withInvoiced');
    if (filter.userId !== undefined) q.modify('ofUser', filter.userId);
    const rows = await q.orderBy('container_orders.id', 'desc').offset(filter.offset).limit(filter.limit);
    return rows.map((r) => plain<OrderWithInvoiced>(r));
  }
}
