import { Form, Select } from 'antd';
import { useState } from 'react';
import { ListPage, type ListQuery } from '../../../../components/list-page';
import { ADMIN_DEFAULT_PAGE_SIZE, ADMIN_PAGE_SIZES, useAdminContainers } from '../../api/admin-containers';
import { statusDisplay } from '../../status';
import type { ContainerStatus } from '../../types';
import { adminContainerColumns } from './admin-container-table';

const STATUSES: ContainerStatus[] = [
  'running',
  'starting',
  'pulling',
  'stopped',
  'error',
  'failed',
  'not_found',
  'deleted',
];

export const STATUS_FILTER_OPTIONS = [
  { value: '', label: '全部' },
  ...STATUSES.map((status) => ({ value: status, label: statusDisplay(status).label })),
];

function useAdminContainerList({ page, size, search }: ListQuery, status: string) {
  return useAdminContainers({ page, size, username: search, status });
}

/** 容器管理: every user's containers, filtered by user and status, one server page at a time. */
export function AdminContainersPage() {
  const [status, setStatus] = useState('');
  return (
    <ListPage
      title="容器管理"
      useList={useAdminContainerList}
      columns={adminContainerColumns}
      rowId={(row) => row.container_id}
      rowTestId={(row) => `admin-container-row-${row.container_id}`}
      aria-label="容器列表"
      emptyText="暂无容器"
      errorTitle="获取容器列表失败"
      defaultPageSize={ADMIN_DEFAULT_PAGE_SIZE}
      pageSizeOptions={ADMIN_PAGE_SIZES}
      refresh
      filtersInCard
      search={{
        label: '用户名',
        id: 'admin-container-username',
        enterButton: '搜索',
        placeholder: '按用户名筛选',
        width: 280,
      }}
      filters={
        <Form.Item label="状态" htmlFor="admin-container-status">
          <Select
            id="admin-container-status"
            style={{ width: 140 }}
            value={status}
            options={STATUS_FILTER_OPTIONS}
            onChange={(next: string) => setStatus(next)}
          />
        </Form.Item>
      }
      filter={status}
    />
  );
}
