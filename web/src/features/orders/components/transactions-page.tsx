import { createColumnHelper, type PaginationState } from '@tanstack/react-table';
import { Alert, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { DataTable, usePagedTable } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../lib/format';
import { useTransactions } from '../api/orders';
import { PAGE_SIZES, type Transaction } from '../types';

const column = createColumnHelper<Transaction>();
type Filter = 'all' | 'income' | 'expense';

/** /transactions: every ledger entry, filtered by income (收入) or expense (支出). */
export function TransactionsPage() {
  const [type, setType] = useState<Filter>('all');
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 10 });
  const tx = useTransactions(pagination.pageIndex + 1, pagination.pageSize, type);
  const columns = [
    column.accessor('create_time', { header: '时间', cell: (i) => formatDateTime(i.getValue()) }),
    column.accessor('type', { header: '类型' }),
    column.accessor('amount', {
      header: '金额',
      meta: { align: 'right' },
      cell: ({ row }) => (
        <Typography.Text type={row.original.type === '支出' ? 'danger' : 'success'}>
          {`${row.original.type === '支出' ? '-' : '+'}¥${row.original.amount.toFixed(2)}`}
        </Typography.Text>
      ),
    }),
    column.accessor('balance_after', {
      header: '余额',
      meta: { align: 'right' },
      cell: (i) => `¥${i.getValue().toFixed(2)}`,
    }),
    column.accessor('description', { header: '说明' }),
    column.accessor('order_id', { header: '订单号', cell: (i) => i.getValue() ?? '-' }),
  ];
  const table = usePagedTable({
    rows: tx.data?.items,
    total: tx.data?.total,
    columns,
    pagination,
    onPaginationChange: setPagination,
    rowId: (row) => row.id,
  });
  return (
    <div>
      <PageHeader
        title="交易记录"
        extra={
          <Segmented<Filter>
            value={type}
            onChange={(value) => {
              setType(value);
              table.firstPage();
            }}
            options={[
              { value: 'all', label: '全部' },
              { value: 'income', label: '收入' },
              { value: 'expense', label: '支出' },
            ]}
          />
        }
      />
      {tx.isError ? (
        <Alert type="error" showIcon message="获取交易记录失败" style={{ marginBottom: 16 }} />
      ) : null}
      <DataTable
        table={table}
        loading={tx.isPending}
        pagination
        pageSizeOptions={PAGE_SIZES}
        aria-label="交易记录"
        emptyText="暂无交易记录"
        rowTestId={(row) => `transaction-row-${row.id}`}
      />
    </div>
  );
}
