import type { AdminUser } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { formatDateTime, formatYuan } from '../../../lib/format';
import { UserActions } from './user-actions';

const column = createColumnHelper<AdminUser>();

/** The columns of /admin/users; `onView` opens a user's drawer. */
export function useUserColumns(onView: (id: number) => void) {
  // Memoised: a new cell function would be a new component type and remount the row's
  // popconfirms on every refetch.
  return useMemo(
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
