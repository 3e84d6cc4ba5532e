import { createColumnHelper, type PaginationState } from '@tanstack/react-table';
import { Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { DataTable, usePagedTable } from '../../../components/data-table';
import { formatDateTime, formatYuan } from '../../../lib/format';
import { type AdminUser, USER_PAGE_SIZES } from '../types';
import { UserActions } from './user-actions';

const column = createColumnHelper<AdminUser>();

export function UserTable({
  users,
  total,
  loading,
  pagination,
  onPaginationChange,
  onView,
}: {
  users: AdminUser[];
  total: number;
  loading: boolean;
  pagination: PaginationState;
  onPaginationChange: (next: PaginationState) => void;
  onView: (id: number) => void;
}) {
  // Memoised: a new cell function would be a new component type and remount the row's
  // popconfirms on every refetch.
  const columns = useMemo(
    () => [
      column.accessor('id', { header: 'ID', meta: { width: 72 } }),
      column.accessor('username', {
        header: '用户名',
        cell: ({ row }) => (
          <Space direction="vertical" size={0}>
            <Typography.Text strong>{row.original.username}</Typography.Text>
            {row.original.nickname ? (
              <Typography.Text type="secondary">{row.original.nickname}</Typography.Text>
            ) : null}
          </Space>
        ),
      }),
      column.accessor('email', {
        header: '邮箱',
        cell: ({ row }) => contact(row.original.email, row.original.is_email_verified),
      }),
      column.accessor('phone', {
        header: '手机号',
        cell: ({ row }) => contact(row.original.phone, row.original.is_phone_verified),
      }),
      column.accessor('balance', {
        header: '余额',
        cell: (info) => formatYuan(info.getValue()),
        meta: { align: 'right' },
      }),
      column.accessor('is_admin', {
        header: '角色',
        cell: (info) => (info.getValue() ? <Tag color="gold">管理员</Tag> : <Tag>用户</Tag>),
      }),
      column.accessor('disabled', {
        header: '状态',
        cell: (info) => (info.getValue() ? <Tag color="error">已禁用</Tag> : <Tag color="success">正常</Tag>),
      }),
      column.accessor('created_at', { header: '注册时间', cell: (info) => formatDateTime(info.getValue()) }),
      column.accessor('last_login_at', {
        header: '最近登录',
        cell: (info) => formatDateTime(info.getValue()),
      }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: ({ row }) => <UserActions user={row.original} onView={onView} />,
      }),
    ],
    [onView],
  );
  const table = usePagedTable({
    rows: users,
    total,
    columns,
    pagination,
    onPaginationChange,
    rowId: (row) => row.id,
  });
  return (
    <DataTable
      table={table}
      loading={loading}
      pagination
      pageSizeOptions={USER_PAGE_SIZES}
      aria-label="用户列表"
      emptyText="没有符合条件的用户"
      rowTestId={(row) => `user-row-${row.id}`}
    />
  );
}

function contact(value: string | null, verified: boolean) {
  if (!value) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={4}>
      <span>{value}</span>
      {verified ? <Tag color="success">已验证</Tag> : null}
    </Space>
  );
}
