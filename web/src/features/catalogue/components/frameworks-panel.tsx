import { PlusOutlined } from '@ant-design/icons';
import type { AdminFramework } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Alert, Button, Flex, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { errorDetail } from '../../../lib/api-client';
import { useAdminFrameworks, useDeleteFramework } from '../api/frameworks';
import { ConfirmDelete } from './confirm-delete';
import { FrameworkDialog } from './framework-dialog';
import { PortTags } from './port-tags';
import { VersionsDrawer } from './versions-drawer';

const column = createColumnHelper<AdminFramework>();

function DeleteFramework({ framework }: { framework: AdminFramework }) {
  const remove = useDeleteFramework();
  return (
    <ConfirmDelete
      title="删除框架"
      description={`确定要删除框架 ${framework.name} 及其全部版本吗？仍有容器使用的框架不能删除。`}
      loading={remove.isPending}
      onDelete={() => remove.mutateAsync(framework.id)}
    />
  );
}

/** 框架与版本: frameworks with their port maps; each opens its versions. */
export function FrameworksPanel() {
  const frameworks = useAdminFrameworks();
  const [editing, setEditing] = useState<AdminFramework | 'new' | null>(null);
  const [versionsOf, setVersionsOf] = useState<AdminFramework['id'] | null>(null);
  const items = frameworks.data?.items ?? [];
  // The drawer follows the list, so a saved version shows up without reopening it.
  const versionsFramework = items.find((f) => f.id === versionsOf) ?? null;

  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: '框架名称',
        cell: (info) => <Typography.Text strong>{info.getValue()}</Typography.Text>,
      }),
      column.accessor('ports', { header: '端口映射', cell: (info) => <PortTags ports={info.getValue()} /> }),
      column.display({
        id: 'versions',
        header: '版本',
        cell: ({ row }) => row.original.versions.map((v) => v.version).join('、') || '-',
      }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: ({ row }) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setVersionsOf(row.original.id)}>
              版本管理
            </Button>
            <Button type="link" size="small" onClick={() => setEditing(row.original)}>
              编辑
            </Button>
            <DeleteFramework framework={row.original} />
          </Space>
        ),
      }),
    ],
    [],
  );
  const table = useReactTable({
    data: items,
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
  });

  return (
    <Flex vertical gap={16}>
      <Flex justify="flex-end">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          新建框架
        </Button>
      </Flex>
      {frameworks.isError ? (
        <Alert type="error" showIcon message="获取框架列表失败" description={errorDetail(frameworks.error)} />
      ) : null}
      <DataTable
        table={table}
        loading={frameworks.isPending}
        aria-label="框架列表"
        emptyText="暂无框架"
        rowTestId={(row) => `framework-row-${row.id}`}
      />
      {editing ? (
        <FrameworkDialog framework={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <VersionsDrawer framework={versionsFramework} onClose={() => setVersionsOf(null)} />
    </Flex>
  );
}
