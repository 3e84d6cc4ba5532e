import type { Coupon, CouponStatus } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { App, Button, Popconfirm, Segmented, Tag } from 'antd';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useAdminCoupons, useRevokeCoupon } from '../../coupons/api/coupons';
import { COUPON_STATUS } from '../../coupons/types';
import { GrantCouponsDialog } from './grant-coupons-dialog';

const column = createColumnHelper<Coupon>();

type StatusFilter = CouponStatus | 'all';

function useCouponList({ page, size, search }: ListQuery, status: StatusFilter) {
  return useAdminCoupons(page, size, status, search);
}

/** /admin/coupons: every user's coupons; grant new ones, revoke unused ones. */
export function AdminCouponsPage() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [granting, setGranting] = useState(false);
  const revoke = useRevokeCoupon();
  const columns = [
    column.accessor('id', { header: 'ID', meta: { width: 72 } }),
    column.accessor('username', { header: '用户', cell: (i) => i.getValue() ?? '-' }),
    column.accessor('name', { header: '名称' }),
    column.accessor('amount', {
      header: '面额',
      meta: { align: 'right' },
      cell: (i) => `¥${i.getValue().toFixed(2)}`,
    }),
    column.accessor('minAmount', {
      header: '门槛',
      meta: { align: 'right' },
      cell: (i) => `¥${i.getValue().toFixed(2)}`,
    }),
    column.accessor('expireDate', { header: '过期时间', cell: (i) => formatDateTime(i.getValue()) }),
    column.accessor('status', {
      header: '状态',
      cell: (i) => <Tag color={COUPON_STATUS[i.getValue()].color}>{COUPON_STATUS[i.getValue()].label}</Tag>,
    }),
    column.accessor('used_for', { header: '用途', cell: (i) => i.getValue() ?? '-' }),
    column.display({
      id: 'actions',
      header: '操作',
      meta: { sticky: 'right' },
      cell: ({ row }) =>
        row.original.status === 'unused' ? (
          <Popconfirm
            title="删除卡券"
            description="确定要删除这张未使用的卡券吗？"
            okText="确定"
            cancelText="取消"
            onConfirm={() =>
              revoke.mutateAsync(row.original.id).then(
                () => message.success('删除成功'),
                (error: unknown) => message.error(withDetail('删除失败', error)),
              )
            }
          >
            <Button type="link" size="small" danger>
              删除
            </Button>
          </Popconfirm>
        ) : null,
    }),
  ];
  return (
    <ListPage
      title="卡券管理"
      useList={useCouponList}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `admin-coupon-row-${row.id}`}
      aria-label="卡券列表"
      emptyText="暂无卡券"
      errorTitle="获取卡券列表失败"
      search={{ placeholder: '用户名', width: 200 }}
      filters={
        <Segmented<StatusFilter>
          value={status}
          onChange={setStatus}
          options={[
            { value: 'all', label: '全部' },
            ...(Object.keys(COUPON_STATUS) as CouponStatus[]).map((s) => ({
              value: s,
              label: COUPON_STATUS[s].label,
            })),
          ]}
        />
      }
      filter={status}
      actions={
        <Button type="primary" onClick={() => setGranting(true)}>
          发放卡券
        </Button>
      }
    >
      <GrantCouponsDialog open={granting} onClose={() => setGranting(false)} />
    </ListPage>
  );
}
