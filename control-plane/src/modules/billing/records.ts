import type { BillingRecordReply, TransactionReply } from './contract.js';
import type { LedgerRepository } from './ledger-repository.js';
import { yuan } from './numbers.js';
import type { RecordFilter, RecordsRepository } from './records-repository.js';

export type { RecordType } from './records-repository.js';

/** A billing record and a ledger transaction as listed (the shapes live in contract.ts). */
export type BillingRecord = BillingRecordReply;
export type TransactionView = TransactionReply;

/**
 * Billing records: the ledger (always successful), plus what is not money yet — top-ups waiting
 * for payment or failed, and orders waiting for payment (they offer 'pay now').
 */
export class Records {
  constructor(
    private readonly repo: RecordsRepository,
    private readonly ledger: LedgerRepository,
  ) {}

  async records(filter: RecordFilter): Promise<{ items: BillingRecord[]; total: number }> {
    const { items, total } = await this.repo.page(filter);
    return {
      items: items.map((r) => ({
        id: r.line === null ? `${r.source}-${r.id}` : `${r.source}-${r.id}-${r.line}`,
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
      total,
    };
  }

  async transactions(filter: {
    userId: number;
    type?: 'income' | 'expense' | undefined;
    offset: number;
    limit: number;
  }): Promise<{ items: TransactionView[]; total: number }> {
    const { items, total } = await this.ledger.page(filter);
    return {
      items: items.map((r) => ({
        id: r.id,
        create_time: r.created_at.toISOString(),
        type: r.amount_fen >= 0 ? '收入' : '支出',
        amount: yuan(Math.abs(r.amount_fen)),
        balance_after: yuan(r.balance_after_fen),
        description: r.description,
        order_id: r.order_no,
      })),
      total,
    };
  }

  statistics(userId: number): Promise<{ expenseFen: number; rechargeFen: number }> {
    return this.ledger.statistics(userId);
  }
}
