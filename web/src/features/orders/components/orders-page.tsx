import type { Order } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { billingTypeLabel } from '../../../lib/billing-types';
import { formatDateTime } from '../../../lib/format';
import { useContainerOrders } from '../api/orders';
import { ORDER_STATUS, ORDER_TYPE_LABELS, PAGE_SIZES } from '../types';
import { OrderDetailDrawer } from './order-detail-drawer';

const column = createColumnHelper<Order>();

/** The orders API pages by skip/limit. */
function useOrderList({ page, size }: ListQuery) {
  return useContainerOrders((page - 1) * size, size);
}

/** /orders and /user/orders: the container orders, 10/20/50/100 a page, with their detail. */
export function OrdersPage() {
  const [viewing, setViewing] = useState<number | null>(null);
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
  return (
    <ListPage
      title="我的订单"
      useList={useOrderList}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `order-row-${row.id}`}
      aria-label="订单列表"
      emptyText="暂无订单"
      errorTitle="获取订单列表失败"
      defaultPageSize={10}
      pageSizeOptions={PAGE_SIZES}
      refresh
    >
      <OrderDetailDrawer orderId={viewing} onClose={() => setViewing(null)} />
    </ListPage>
  );
}
