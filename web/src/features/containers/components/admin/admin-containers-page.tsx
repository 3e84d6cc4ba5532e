import { ReloadOutlined } from '@ant-design/icons';
import type { PaginationState } from '@tanstack/react-table';
import { Button, Card, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { LoadError } from '../../../../components/load-error';
import { PageHeader } from '../../../../components/page-header';
import { ADMIN_DEFAULT_PAGE_SIZE, useAdminContainers } from '../../api/admin-containers';
import { statusDisplay } from '../../status';
import type { ContainerStatus } from '../../types';
import { AdminContainerTable } from './admin-container-table';

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

/** 容器管理: every user's containers, filtered by user and status, one server page at a time. */
export function AdminContainersPage() {
  const [usernameInput, setUsernameInput] = useState('');
  const [username, setUsername] = useState('');
  const [status, setStatus] = useState('');
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: ADMIN_DEFAULT_PAGE_SIZE,
  });
  const containers = useAdminContainers({
    page: pagination.pageIndex + 1,
    size: pagination.pageSize,
    username,
    status,
  });
  const firstPage = () => setPagination((current) => ({ ...current, pageIndex: 0 }));

  return (
    <div>
      <PageHeader
        title="容器管理"
        extra={
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void containers.refetch()}
            loading={containers.isFetching}
          >
            刷新
          </Button>
        }
      />
      <Card style={{ marginBottom: 16 }}>
        <Form layout="inline" style={{ rowGap: 12 }}>
          <Form.Item label="用户名" htmlFor="admin-container-username">
            <Input.Search
              id="admin-container-username"
              allowClear
              enterButton="搜索"
              placeholder="按用户名筛选"
              style={{ width: 280 }}
              value={usernameInput}
              onChange={(event) => {
                setUsernameInput(event.target.value);
                if (event.target.value === '') {
                  setUsername('');
                  firstPage();
                }
              }}
              onSearch={(value) => {
                setUsername(value.trim());
                firstPage();
              }}
            />
          </Form.Item>
          <Form.Item label="状态" htmlFor="admin-container-status">
            <Select
              id="admin-container-status"
              style={{ width: 140 }}
              value={status}
              options={STATUS_FILTER_OPTIONS}
              onChange={(next: string) => {
                setStatus(next);
                firstPage();
              }}
            />
          </Form.Item>
        </Form>
      </Card>
      <LoadError title="获取容器列表失败" error={containers.isError ? containers.error : null} />
      <AdminContainerTable
        containers={containers.data?.items ?? []}
        total={containers.data?.total ?? 0}
        loading={containers.isFetching}
        pagination={pagination}
        onPaginationChange={setPagination}
      />
    </div>
  );
}
