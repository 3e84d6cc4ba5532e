import type { Knex } from 'knex';

export type RecordType = 'expense' | 'recharge' | 'refund';

/** A row of the billing records: a ledger row, a payment not yet money, or a pending order. */
export interface RecordRow {
  source: 'ledger' | 'payment' | 'order';
  id: number;
  /** A settlement's row lists its containers' charges, one record each: the line's number. */
  line: number | null;
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

/** A page of the user's billing records, of one type and time range. */
export interface RecordFilter {
  userId: number;
  type?: RecordType | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  offset: number;
  limit: number;
}

/**
 * The billing records, read over billing's tables (ledger_entries with their ledger_lines,
 * payments, container_orders) as one union: raw SQL, no model of its own. A ledger row with
 * lines (a settlement's charges of a user's containers) is listed line by line, each as the
 * container's own charge.
 */
export class RecordsRepository {
  constructor(private readonly knex: Knex) {}

  private union(userId: number) {
    return this.knex.raw(
      `select 'ledger' as source, e.id, l.line, e.created_at,
         case when e.kind = 'refund' then 'refund' when coalesce(l.amount_fen, e.amount_fen) < 0 then 'expense' else 'recharge' end as type,
         coalesce(l.description, e.description) as description,
         case when l.line is null then e.billed_seconds else l.billed_seconds end as billed_seconds,
         coalesce(l.amount_fen, e.amount_fen) as amount_fen, e.payment_method, 'success' as status,
         null::varchar as out_trade_no, null::text as code_url,
         case when l.line is null then e.order_id else l.order_id end as order_id
       from ledger_entries e left join ledger_lines l on l.entry_id = e.id
       where e.user_id = ?
       union all
       select 'payment', id, null, created_at, 'recharge', description, null, amount_fen, 'wechat',
         case when status = 'pending' then 'pending' else 'failed' end, out_trade_no, code_url, order_id
       from payments where user_id = ? and status <> 'success' and order_id is null
       union all
       select 'order', id, null, created_at, 'expense', '续费容器 ' || product_name, null, -amount_fen, 'balance', 'pending', null, null, id
       from container_orders where user_id = ? and status = 'pending'`,
      [userId, userId, userId],
    );
  }

  async page(filter: RecordFilter): Promise<{ items: RecordRow[]; total: number }> {
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
          { column: 'line', order: 'desc', nulls: 'last' },
        ])
        .offset(filter.offset)
        .limit(filter.limit),
      q.clone().count<{ count: string }[]>({ count: '*' }),
    ]);
    return { items: rows as RecordRow[], total: Number(counted[0]?.count ?? 0) };
  }
}
