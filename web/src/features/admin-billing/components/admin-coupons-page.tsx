import { createColumnHelper, type PaginationState } from '@tanstack/react-table';
import { Alert, App, Button, Input, Popconfirm, Segmented, Space, Tag } from 'antd';
import { useState } from 'react';
import { DataTable, usePagedTable } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useAdminCoupons, useRevokeCoupon } from '../../coupons/api/coupons';
import { COUPON_STATUS, type Coupon, type CouponStatus } from '../../coupons/types';
import { GrantCouponsDialog } from './grant-coupons-dialog';

const column = createColumnHelper<Coupon>();

/** /admin/coupons: every user's coupons; grant new ones, revoke unused ones. */
export function AdminCouponsPage() {
  const { message } = App.useApp();
  const [status, setStatus] = useState<CouponStatus | 'all'>('all');
  const [username, setUsername] = useState('');
  const [granting, setGranting] = useState(false);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 20 });
  const coupons = useAdminCoupons(pagination.pageIndex + 1, pagination.pageSize, status, username);
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
  const table = usePagedTable({
    rows: coupons.data?.items,
    total: coupons.data?.total,
    columns,
    pagination,
    onPaginationChange: setPagination,
    rowId: (row) => row.id,
  });
  return (
    <div>
      <PageHeader
        title="卡券管理"
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
            <Segmented<CouponStatus | 'all'>
              value={status}
              onChange={(v) => {
                setStatus(v);
                table.firstPage();
              }}
              options={[
                { value: 'all', label: '全部' },
                ...(Object.keys(COUPON_STATUS) as CouponStatus[]).map((s) => ({
                  value: s,
                  label: COUPON_STATUS[s].label,
                })),
              ]}
            />
            <Button type="primary" onClick={() => setGranting(true)}>
              发放卡券
            </Button>
          </Space>
        }
      />
      {coupons.isError ? (
        <Alert type="error" showIcon message="获取卡券列表失败" style={{ marginBottom: 16 }} />
      ) : null}
      <DataTable
        table={table}
        loading={coupons.isPending}
        pagination
        aria-label="卡券列表"
        emptyText="暂无卡券"
        rowTestId={(row) => `admin-coupon-row-${row.id}`}
      />
      <GrantCouponsDialog open={granting} onClose={() => setGranting(false)} />
    </div>
  );
}
