export type InvoiceStatus = 'pending' | 'issued' | 'cancelled';

export interface Invoice {
  id: number;
  invoice_no: string;
  title: string;
  tax_no: string;
  amount: number;
  status: InvoiceStatus;
  create_time: string;
  issued_at: string | null;
  order_id: number;
  order_no: string;
  username?: string;
}

/** 待开具, 已开具, 已取消 (spec §4). */
export const INVOICE_STATUS: Record<InvoiceStatus, { label: string; color: string }> = {
  pending: { label: '待开具', color: 'warning' },
  issued: { label: '已开具', color: 'success' },
  cancelled: { label: '已取消', color: 'default' },
};
