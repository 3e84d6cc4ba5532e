import type { Knex } from 'knex';
import { InvoiceModel, type InvoiceRow, type InvoiceStatus } from './model.js';

export type { InvoiceRow, InvoiceStatus } from './model.js';

/** An invoice with its order's number and product. */
export type InvoiceWithOrder = InvoiceRow & { order_no: string; product_name: string };

const plain = (model: InvoiceModel): InvoiceWithOrder => ({ ...model.toJSON() }) as InvoiceWithOrder;

/** Owns invoices. */
export class InvoicesRepository {
  constructor(private readonly knex: Knex) {}

  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.knex.transaction(fn);
  }

  /** Invoices joined to their orders (the `order` relation) for the order's number and product. */
  private withOrder() {
    return InvoiceModel.query(this.knex)
      .joinRelated('order')
      .select('invoices.*', 'order.order_no', 'order.product_name');
  }

  async find(id: number): Promise<InvoiceWithOrder | undefined> {
    const row = await this.withOrder().where('invoices.id', id).first();
    return row && plain(row);
  }

  /** A page of invoices, newest first: one user's or all (an admin's), of one status or any. */
  async page(filter: {
    userId?: number | undefined;
    status?: InvoiceStatus | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: InvoiceWithOrder[]; total: number }> {
    const q = this.withOrder();
    if (filter.userId !== undefined) q.where('invoices.user_id', filter.userId);
    if (filter.status) q.where('invoices.status', filter.status);
    const [rows, total] = await Promise.all([
      q.clone().orderBy('invoices.id', 'desc').offset(filter.offset).limit(filter.limit),
      q.clone().resultSize(),
    ]);
    return { items: rows.map(plain), total };
  }

  /** What the order has invoiced so far (pending and issued invoices), in the caller's transaction. */
  async invoicedFen(trx: Knex.Transaction, orderId: number): Promise<number> {
    const row = (await InvoiceModel.query(trx)
      .where({ order_id: orderId })
      .modify('counted')
      .sum('amount_fen as sum')
      .first()) as unknown as { sum: string | number | null } | undefined;
    return Number(row?.sum ?? 0);
  }

  async insert(
    trx: Knex.Transaction,
    row: Pick<InvoiceRow, 'invoice_no' | 'user_id' | 'order_id' | 'title' | 'tax_no' | 'amount_fen'>,
  ): Promise<number> {
    const inserted = await InvoiceModel.query(trx).insert(row).returning('id');
    return inserted.id;
  }

  /** The user cancels a pending invoice; false when the user has no such pending invoice. */
  async cancelPending(userId: number, id: number): Promise<boolean> {
    const updated = await InvoiceModel.query(this.knex)
      .where({ id, user_id: userId, status: 'pending' })
      .patch({ status: 'cancelled' });
    return updated > 0;
  }

  /** An admin issues a pending invoice; false when there is no such pending invoice. */
  async issuePending(id: number, adminId: number, now: Date): Promise<boolean> {
    const updated = await InvoiceModel.query(this.knex)
      .where({ id, status: 'pending' })
      .patch({ status: 'issued', issued_by: adminId, issued_at: now });
    return updated > 0;
  }
}
