import {
  createColumnHelper,
  getCoreRowModel,
  type PaginationState,
  useReactTable,
} from '@tanstack/react-table';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { DataTable } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { INVOICE_STATUS, type Invoice } from '../types';

const column = createColumnHelper<Invoice>();

/** The invoices table of the user's and the admin's screens. */
export function InvoiceTable({
  invoices,
  total,
  loading,
  pagination,
  onPaginationChange,
  actions,
  showUser = false,
}: {
  invoices: Invoice[];
  total: number;
  loading: boolean;
  pagination: PaginationState;
  onPaginationChange: (p: PaginationState) => void;
  actions: (invoice: Invoice) => ReactNode;
  showUser?: boolean;
}) {
  const columns = [
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
  const table = useReactTable({
    data: invoices,
    columns,
    rowCount: total,
    state: { pagination },
    onPaginationChange: (updater) =>
      onPaginationChange(typeof updater === 'function' ? updater(pagination) : updater),
    manualPagination: true,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <DataTable
      table={table}
      loading={loading}
      pagination
      aria-label="发票列表"
      emptyText="暂无发票"
      rowTestId={(row) => `invoice-row-${row.id}`}
    />
  );
}
