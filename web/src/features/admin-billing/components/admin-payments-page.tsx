import { createColumnHelper, type PaginationState } from '@tanstack/react-table';
import { Alert, Button, Input, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { DataTable, usePagedTable } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime } from '../../../lib/format';
import { type AdminPayment, useAdminPayments } from '../api/admin-money';
import { AdjustBalanceDialog } from './adjust-balance-dialog';

const column = createColumnHelper<AdminPayment>();
const STATUS: Record<AdminPayment['status'], { label: string; color: string }> = {
  pending: { label: '待支付', color: 'warning' },
  success: { label: '已支付', color: 'success' },
  failed: { label: '失败', color: 'error' },
  closed: { label: '已关闭', color: 'default' },
};

/** /admin/payments: every payment and its state; balance adjustments. */
export function AdminPaymentsPage() {
  const [status, setStatus] = useState('all');
  const [username, setUsername] = useState('');
  const [adjusting, setAdjusting] = useState(false);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 20 });
  const payments = useAdminPayments(pagination.pageIndex + 1, pagination.pageSize, status, username);
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
  const table = usePagedTable({
    rows: payments.data?.items,
    total: payments.data?.total,
    columns,
    pagination,
    onPaginationChange: setPagination,
    rowId: (row) => row.id,
  });
  return (
    <div>
      <PageHeader
        title="支付记录"
        extra={
          <Space wrap>
            <Input.Search
              allowClear
              placeholder="用户名"
              style={{ width: 200 }}
              onSearch={(v) => {
                setUsername(v.trim());
                table.firstPage();
              }}
            />
            <Select
              value={status}
              style={{ width: 120 }}
              aria-label="支付状态"
              onChange={(v) => {
                setStatus(v);
                table.firstPage();
              }}
              options={[
                { value: 'all', label: '全部' },
                ...Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label })),
              ]}
            />
            <Button type="primary" onClick={() => setAdjusting(true)}>
              调整余额
            </Button>
          </Space>
        }
      />
      {payments.isError ? (
        <Alert type="error" showIcon message="获取支付记录失败" style={{ marginBottom: 16 }} />
      ) : null}
      <DataTable
        table={table}
        loading={payments.isPending}
        pagination
        aria-label="支付记录"
        emptyText="暂无支付记录"
        rowTestId={(row) => `payment-row-${row.id}`}
      />
      <AdjustBalanceDialog open={adjusting} onClose={() => setAdjusting(false)} />
    </div>
  );
}
