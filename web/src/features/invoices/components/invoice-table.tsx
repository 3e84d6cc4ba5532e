import type { Invoice, InvoiceStatus } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { App, Button, Select, Tag } from 'antd';
import type { ReactNode } from 'react';
import { errorDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { downloadInvoice } from '../api/invoices';
import { INVOICE_STATUS } from '../types';

const column = createColumnHelper<Invoice>();

/** The columns of the user's and the admin's invoice lists; `actions` fills the 操作 column. */
export function invoiceColumns(actions: (invoice: Invoice) => ReactNode, showUser = false) {
  return [
    column.accessor('invoice_no', { header: '发票编号' }),
    ...(showUser ? [column.accessor('username', { header: '用户', cell: (i) => i.getValue() ?? '-' })] : []),
    column.accessor('title', { header: '发票抬头' }),
    column.accessor('tax_no', { header: '税号' }),
    column.accessor('order_no', { header: '订单号' }),
    column.accessor('amount', {
      header: '金额',
      meta: { align: 'right' },
      cell: (i) => `¥${i.getValue().toFixed(2)}`,
    }),
    column.accessor('status', {
      header: '状态',
      cell: (i) => <Tag color={INVOICE_STATUS[i.getValue()].color}>{INVOICE_STATUS[i.getValue()].label}</Tag>,
    }),
    column.accessor('create_time', { header: '申请时间', cell: (i) => formatDateTime(i.getValue()) }),
    column.display({
      id: 'actions',
      header: '操作',
      meta: { sticky: 'right' },
      cell: ({ row }) => actions(row.original),
    }),
  ];
}

/** What the user's and the admin's invoice lists share besides their columns. */
export const INVOICE_LIST = {
  rowId: (row: Invoice) => row.id,
  rowTestId: (row: Invoice) => `invoice-row-${row.id}`,
  'aria-label': '发票列表',
  emptyText: '暂无发票',
  errorTitle: '获取发票列表失败',
  title: '发票管理',
};

/** The status filter above both invoice lists. */
export function InvoiceStatusSelect({
  value,
  onChange,
}: {
  value: InvoiceStatus | 'all';
  onChange: (status: InvoiceStatus | 'all') => void;
}) {
  return (
    <Select<InvoiceStatus | 'all'>
      value={value}
      style={{ width: 120 }}
      aria-label="发票状态"
      onChange={onChange}
      options={[
        { value: 'all', label: '全部' },
        ...Object.entries(INVOICE_STATUS).map(([status, { label }]) => ({
          value: status as InvoiceStatus,
          label,
        })),
      ]}
    />
  );
}

/** 下载 of an issued invoice, for its owner or an admin. */
export function DownloadInvoiceButton({ invoice, scope }: { invoice: Invoice; scope: 'mine' | 'admin' }) {
  const { message } = App.useApp();
  return (
    <Button
      type="link"
      size="small"
      onClick={() => downloadInvoice(invoice, scope).catch((e: unknown) => message.error(errorDetail(e)))}
    >
      下载
    </Button>
  );
}
