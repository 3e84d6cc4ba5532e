import type { Transaction } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Segmented, Typography } from 'antd';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { formatDateTime } from '../../../lib/format';
import { useTransactions } from '../api/orders';
import { PAGE_SIZES } from '../types';

const column = createColumnHelper<Transaction>();
type Filter = 'all' | 'income' | 'expense';

function useTransactionList({ page, size }: ListQuery, type: Filter) {
  return useTransactions(page, size, type);
}

/** /transactions: every ledger entry, filtered by income (收入) or expense (支出). */
export function TransactionsPage() {
  const [type, setType] = useState<Filter>('all');
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
  return (
    <ListPage
      title="交易记录"
      useList={useTransactionList}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `transaction-row-${row.id}`}
      aria-label="交易记录"
      emptyText="暂无交易记录"
      errorTitle="获取交易记录失败"
      defaultPageSize={10}
      pageSizeOptions={PAGE_SIZES}
      filters={
        <Segmented<Filter>
          value={type}
          onChange={setType}
          options={[
            { value: 'all', label: '全部' },
            { value: 'income', label: '收入' },
            { value: 'expense', label: '支出' },
          ]}
        />
      }
      filter={type}
    />
  );
}
