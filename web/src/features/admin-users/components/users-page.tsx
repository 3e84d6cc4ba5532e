import { ReloadOutlined } from '@ant-design/icons';
import type { PaginationState } from '@tanstack/react-table';
import { Alert, Button, Input, Space } from 'antd';
import { useState } from 'react';
import { PageHeader } from '../../../components/page-header';
import { errorDetail } from '../../../lib/api-client';
import { useAdminUsers } from '../api/get-users';
import { UserDetailDrawer } from './user-detail-drawer';
import { UserTable } from './user-table';

/** /admin/users: search, page, view, disable / enable, grant / revoke admin. */
export function UsersPage() {
  const [keyword, setKeyword] = useState('');
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 20 });
  const [viewing, setViewing] = useState<number | null>(null);
  const users = useAdminUsers({ page: pagination.pageIndex + 1, size: pagination.pageSize, keyword });

  return (
    <div>
      <PageHeader
        title="用户管理"
        extra={
          <Space wrap>
            <Input.Search
              allowClear
              placeholder="用户名、昵称、邮箱或手机号"
              aria-label="搜索用户"
              style={{ width: 280 }}
              onSearch={(value) => {
                setKeyword(value.trim());
                setPagination((p) => ({ ...p, pageIndex: 0 }));
              }}
            />
            <Button icon={<ReloadOutlined />} onClick={() => void users.refetch()} loading={users.isFetching}>
              刷新
            </Button>
          </Space>
        }
      />
      {users.isError ? (
        <Alert
          type="error"
          showIcon
          message="获取用户列表失败"
          description={errorDetail(users.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <UserTable
        users={users.data?.items ?? []}
        total={users.data?.total ?? 0}
        loading={users.isPending}
        pagination={pagination}
        onPaginationChange={setPagination}
        onView={setViewing}
      />
      <UserDetailDrawer userId={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
