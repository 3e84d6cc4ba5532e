import type { Knex } from 'knex';
import { yuan } from './numbers.js';

export type RecordType = 'expense' | 'recharge' | 'refund';

interface RecordRow {
  source: 'ledger' | 'payment' | 'order';
  id: number;
  created_at: Date;
  type: RecordType;
  description: string;
  billed_seconds: number | null;
  amount_fen: number;
  payment_method: string;
  status: 'success' | 'pending' | 'failed';
  out_trade_no: string | null;
  code_url: string | null;
  order_id: number | null;
}

export interface BillingRecord {
  id: string;
  source: RecordRow['source'];
  create_time: string;
  type: RecordType;
  description: string;
  /** Hours, 2 decimals; null when the record has no duration (a recharge). */
  duration: number | null;
  /** Signed yuan: expenses are negative. */
  amount: number;
  payment_method: string;
  status: RecordRow['status'];
  out_trade_no: string | null;
  /** A pending WeChat top-up's QR (pay now shows it again). */
  code_url: string | null;
  order_id: number | null;
}

export interface TransactionView {
  id: number;
  create_time: string;
  type: '收入' | '支出';
  amount: number;
  balance_after: number;
  description: string;
  order_id: string | null;
}

/**
 * Billing records: the ledger (always successful), plus what is not money yet — top-ups waiting
 * for payment or failed, and orders waiting for payment (they offer 'pay now').
 */
export class RecordsRepository {
  constructor(private readonly knex: Knex) {}

  private union(userId: number) {
    const k = this.knex;
    return k.raw(
      `select 'ledger' as source, id, created_at,
         case when kind = 'refund' then 'refund' when amount_fen < 0 then 'expense' else 'recharge' end as type,
         description, billed_seconds, amount_fen, payment_method, 'success' as status, null::varchar as out_trade_no, null::text as code_url, order_id
       from ledger_entries where user_id = ?
       union all
       select 'payment', id, created_at, 'recharge', description, null, amount_fen, 'wechat',
         case when status = 'pending' then 'pending' else 'failed' end, out_trade_no, code_url, order_id
       from payments where user_id = ? and status <> 'success' and order_id is null
       union all
       select 'order', id, created_at, 'expense', '续费容器 ' || product_name, null, -amount_fen, 'balance', 'pending', null, null, id
       from container_orders where user_id = ? and status = 'pending'`,
      [userId, userId, userId],
    );
  }

  async records(filter: {
    userId: number;
    type?: RecordType | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: BillingRecord[]; total: number }> {
    const q = this.knex.from(this.knex.raw('(?) as r', [this.union(filter.userId)]));
    if (filter.type) q.where('type', filter.type);
    if (filter.from) q.where('created_at', '>=', filter.from);
    if (filter.to) q.where('created_at', '<=', filter.to);
    const [rows, counted] = await Promise.all([
      q
        .clone()
        .select('*')
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .offset(filter.offset)
        .limit(filter.limit),
      q.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return {
      items: (rows as RecordRow[]).map((r) => ({
        id: `${r.source}-${r.id}`,
        source: r.source,
        create_time: r.created_at.toISOString(),
        type: r.type,
        description: r.description,
        duration:
          r.billed_seconds === null ? null : Math.round((Number(r.billed_seconds) / 3600) * 100) / 100,
        amount: yuan(r.amount_fen),
        payment_method: r.payment_method,
        status: r.status,
        out_trade_no: r.out_trade_no,
        code_url: r.status === 'pending' ? r.code_url : null,
        order_id: r.order_id,
      })),
      total: Number(counted[0]?.count ?? 0),
    };
  }

  async transactions(filter: {
    userId: number;
    type?: 'income' | 'expense' | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: TransactionView[]; total: number }> {
    const q = this.knex('ledger_entries')
      .leftJoin('container_orders', 'container_orders.id', 'ledger_entries.order_id')
      .where('ledger_entries.user_id', filter.userId);
    if (filter.type === 'income') q.where('ledger_entries.amount_fen', '>', 0);
    if (filter.type === 'expense') q.where('ledger_entries.amount_fen', '<', 0);
    const [rows, counted] = await Promise.all([
      q
        .clone()
        .select('ledger_entries.*', 'container_orders.order_no')
        .orderBy('ledger_entries.id', 'desc')
        .offset(filter.offset)
        .limit(filter.limit),
      q.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return {
      items: rows.map(
        (r: {
          id: number;
          created_at: Date;
          amount_fen: number;
          balance_after_fen: number;
          description: string;
          order_no: string | null;
        }) => ({
          id: r.id,
          create_time: r.created_at.toISOString(),
          type: r.amount_fen >= 0 ? '收入' : '支出',
          amount: yuan(Math.abs(r.amount_fen)),
          balance_after: yuan(r.balance_after_fen),
          description: r.description,
          order_id: r.order_no,
        }),
      ),
      total: Number(counted[0]?.count ?? 0),
    };
  }

  async statistics(userId: number): Promise<{ expenseFen: number; rechargeFen: number }> {
    const [row] = await this.knex('ledger_entries')
      .where({ user_id: userId })
      .select(
        this.knex.raw(
          "coalesce(sum(case when kind = 'expense' then -amount_fen when kind = 'refund' then -amount_fen else 0 end), 0)::bigint as expense",
        ),
        this.knex.raw(
          "coalesce(sum(case when kind = 'recharge' then amount_fen else 0 end), 0)::bigint as recharge",
        ),
      );
    return { expenseFen: Number(row?.expense ?? 0), rechargeFen: Number(row?.recharge ?? 0) };
  }
}
