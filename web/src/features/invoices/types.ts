import type { InvoiceStatus } from '@gpucloud/control-plane/api';

/** 待开具, 已开具, 已取消 (spec §4). */
export const INVOICE_STATUS: Record<InvoiceStatus, { label: string; color: string }> = {
  pending: { label: '待开具', color: 'warning' },
  issued: { label: '已开具', color: 'success' },
  cancelled: { label: '已取消', color: 'default' },
};
