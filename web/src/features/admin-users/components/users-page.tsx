import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../components/list-page';
import { useAdminUsers } from '../api/get-users';
import { USER_PAGE_SIZES } from '../types';
import { UserDetailDrawer } from './user-detail-drawer';
import { useUserColumns } from './user-table';

function useUserList({ page, size, search }: ListQuery) {
  return useAdminUsers({ page, size, keyword: search });
}

/** /admin/users: search, page, view, disable / enable, grant / revoke admin. */
export function UsersPage() {
  const [viewing, setViewing] = useState<number | null>(null);
  const columns = useUserColumns(setViewing);
  return (
    <ListPage
      title="用户管理"
      useList={useUserList}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `user-row-${row.id}`}
      aria-label="用户列表"
      emptyText="没有符合条件的用户"
      errorTitle="获取用户列表失败"
      pageSizeOptions={USER_PAGE_SIZES}
      search={{ placeholder: '用户名、昵称、邮箱或手机号', 'aria-label': '搜索用户', width: 280 }}
      refresh
    >
      <UserDetailDrawer userId={viewing} onClose={() => setViewing(null)} />
    </ListPage>
  );
}
