import type { AdminPayment } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Button, Select, Tag } from 'antd';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { formatDateTime } from '../../../lib/format';
import { useAdminPayments } from '../api/admin-money';
import { AdjustBalanceDialog } from './adjust-balance-dialog';

const column = createColumnHelper<AdminPayment>();
const STATUS: Record<AdminPayment['status'], { label: string; color: string }> = {
  pending: { label: '待支付', color: 'warning' },
  success: { label: '已支付', color: 'success' },
  failed: { label: '失败', color: 'error' },
  closed: { label: '已关闭', color: 'default' },
};

function usePaymentList({ page, size, search }: ListQuery, status: string) {
  return useAdminPayments(page, size, status, search);
}

/** /admin/payments: every payment and its state; balance adjustments. */
export function AdminPaymentsPage() {
  const [status, setStatus] = useState('all');
  const [adjusting, setAdjusting] = useState(false);
  const columns = [
    column.accessor('out_trade_no', { header: '商户订单号' }),
    column.accessor('username', { header: '用户' }),
    column.accessor('amount', {
      header: '金额',
      meta: { align: 'right' },
      cell: (i) => `¥${i.getValue().toFixed(2)}`,
    }),
    column.accessor('provider', {
      header: '渠道',
      cell: (i) => (i.getValue() === 'sandbox' ? '微信支付（沙箱）' : '微信支付'),
    }),
    column.accessor('description', { header: '说明' }),
    column.accessor('status', {
      header: '状态',
      cell: (i) => <Tag color={STATUS[i.getValue()].color}>{STATUS[i.getValue()].label}</Tag>,
    }),
    column.accessor('trade_state', { header: '交易状态' }),
    column.accessor('transaction_id', { header: '微信支付单号', cell: (i) => i.getValue() ?? '-' }),
    column.accessor('create_time', { header: '创建时间', cell: (i) => formatDateTime(i.getValue()) }),
    column.accessor('paid_at', { header: '支付时间', cell: (i) => formatDateTime(i.getValue()) }),
  ];
  return (
    <ListPage
      title="支付记录"
      useList={usePaymentList}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `payment-row-${row.id}`}
      aria-label="支付记录"
      emptyText="暂无支付记录"
      errorTitle="获取支付记录失败"
      search={{ placeholder: '用户名', width: 200 }}
      filters={
        <Select
          value={status}
          style={{ width: 120 }}
          aria-label="支付状态"
          onChange={setStatus}
          options={[
            { value: 'all', label: '全部' },
            ...Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label })),
          ]}
        />
      }
      filter={status}
      actions={
        <Button type="primary" onClick={() => setAdjusting(true)}>
          调整余额
        </Button>
      }
    >
      <AdjustBalanceDialog open={adjusting} onClose={() => setAdjusting(false)} />
    </ListPage>
  );
}
