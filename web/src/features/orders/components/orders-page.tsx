import { ReloadOutlined } from '@ant-design/icons';
import { createColumnHelper, type PaginationState } from '@tanstack/react-table';
import { Alert, Button, Tag } from 'antd';
import { useState } from 'react';
import { DataTable, usePagedTable } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { billingTypeLabel } from '../../../lib/billing-types';
import { formatDateTime } from '../../../lib/format';
import { useContainerOrders } from '../api/orders';
import { ORDER_STATUS, ORDER_TYPE_LABELS, type Order, PAGE_SIZES } from '../types';
import { OrderDetailDrawer } from './order-detail-drawer';

const column = createColumnHelper<Order>();

/** /orders and /user/orders: the container orders, 10/20/50/100 a page, with their detail. */
export function OrdersPage() {
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 10 });
  const [viewing, setViewing] = useState<number | null>(null);
  const orders = useContainerOrders(pagination.pageIndex * pagination.pageSize, pagination.pageSize);
  const columns = [
    column.accessor('order_id', { header: '订单号' }),
    column.accessor('create_time', { header: '创建时间', cell: (i) => formatDateTime(i.getValue()) }),
    column.accessor('product_name', { header: '产品' }),
    column.accessor('order_type', {
      header: '类型',
      cell: (i) => ORDER_TYPE_LABELS[i.getValue()] ?? i.getValue(),
    }),
    column.accessor('billing_method', { header: '计费方式', cell: (i) => billingTypeLabel(i.getValue()) }),
    column.accessor('usage_duration', { header: '使用时长', cell: (i) => `${i.getValue()} 小时` }),
    column.accessor('amount', {
      header: '金额',
      meta: { align: 'right' },
      cell: (i) => `¥${i.getValue().toFixed(2)}`,
    }),
    column.accessor('status', {
      header: '状态',
      cell: (i) => <Tag color={ORDER_STATUS[i.getValue()].color}>{ORDER_STATUS[i.getValue()].label}</Tag>,
    }),
    column.display({
      id: 'actions',
      header: '操作',
      meta: { sticky: 'right' },
      cell: ({ row }) => (
        <Button type="link" size="small" onClick={() => setViewing(row.original.id)}>
          详情
        </Button>
      ),
    }),
  ];
  const table = usePagedTable({
    rows: orders.data?.items,
    total: orders.data?.total,
    columns,
    pagination,
    onPaginationChange: setPagination,
    rowId: (row) => row.id,
  });
  return (
    <div>
      <PageHeader
        title="我的订单"
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void orders.refetch()} loading={orders.isFetching}>
            刷新
          </Button>
        }
      />
      {orders.isError ? (
        <Alert type="error" showIcon message="获取订单列表失败" style={{ marginBottom: 16 }} />
      ) : null}
      <DataTable
        table={table}
        loading={orders.isPending}
        pagination
        pageSizeOptions={PAGE_SIZES}
        aria-label="订单列表"
        emptyText="暂无订单"
        rowTestId={(row) => `order-row-${row.id}`}
      />
      <OrderDetailDrawer orderId={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
