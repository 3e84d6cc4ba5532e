import { PlusOutlined } from '@ant-design/icons';
import type { AdminFramework, FrameworkVersion } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Button, Drawer, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { useDeleteVersion } from '../api/frameworks';
import { ConfirmDelete } from './confirm-delete';
import { MountTags, PortTags } from './port-tags';
import { VersionDialog } from './version-dialog';

const column = createColumnHelper<FrameworkVersion>();

function DeleteVersion({ version }: { version: FrameworkVersion }) {
  const remove = useDeleteVersion();
  return (
    <ConfirmDelete
      title="删除版本"
      description={`确定要删除版本 ${version.version} 吗？仍有容器使用的版本不能删除。`}
      loading={remove.isPending}
      onDelete={() => remove.mutateAsync(version.id)}
    />
  );
}

/** The versions of one framework, with their images, ports and default mounts. */
export function VersionsDrawer({
  framework,
  onClose,
}: {
  framework: AdminFramework | null;
  onClose: () => void;
}) {
  const [editing, setEditing] = useState<FrameworkVersion | 'new' | null>(null);
  const columns = useMemo(
    () => [
      column.accessor('version', {
        header: '版本',
        cell: (info) => <Typography.Text strong>{info.getValue()}</Typography.Text>,
      }),
      column.accessor('image', {
        header: '镜像',
        cell: (info) => <Typography.Text className="mono">{info.getValue()}</Typography.Text>,
      }),
      column.accessor('cuda_version', { header: 'CUDA', cell: (info) => info.getValue() || '-' }),
      column.accessor('system_type', {
        header: '系统',
        cell: (info) =>
          info.getValue() === 'windows' ? <Tag color="blue">Windows</Tag> : <Tag color="orange">Ubuntu</Tag>,
      }),
      column.accessor('ports', { header: '端口', cell: (info) => <PortTags ports={info.getValue()} /> }),
      column.accessor('mounts', {
        header: '默认挂载',
        cell: (info) => <MountTags mounts={info.getValue()} />,
      }),
      column.accessor('extra_driver_capabilities', {
        header: '额外驱动能力',
        cell: (info) => {
          const caps = info.getValue() ?? [];
          return caps.length ? (
            <Space size={[4, 4]} wrap>
              {caps.map((cap) => (
                <Tag key={cap}>{cap}</Tag>
              ))}
            </Space>
          ) : (
            <Typography.Text type="secondary">-</Typography.Text>
          );
        },
      }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: ({ row }) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing(row.original)}>
              编辑
            </Button>
            <DeleteVersion version={row.original} />
          </Space>
        ),
      }),
    ],
    [],
  );
  const table = useReactTable({
    data: framework?.versions ?? [],
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
  });

  return (
    <Drawer
      open={framework !== null}
      onClose={onClose}
      width={1000}
      title={`版本管理 - ${framework?.name ?? ''}`}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          新建版本
        </Button>
      }
    >
      <DataTable
        table={table}
        aria-label="版本列表"
        emptyText="暂无版本"
        rowTestId={(row) => `version-row-${row.id}`}
      />
      {framework && editing ? (
        <VersionDialog
          framework={framework}
          version={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Drawer>
  );
}
