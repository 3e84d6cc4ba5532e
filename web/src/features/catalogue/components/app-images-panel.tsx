import { PlusOutlined } from '@ant-design/icons';
import type { AppImage } from '@gpucloud/control-plane/api';
import {
  createColumnHelper,
  getCoreRowModel,
  getPaginationRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { Alert, Button, Flex, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { errorDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { categoryLabel } from '../../apps/categories';
import { AppIcon } from '../../apps/components/app-icon';
import { useAdminImages, useDeleteImage } from '../api/images';
import { AppImageDialog } from './app-image-dialog';
import { ConfirmDelete } from './confirm-delete';

const column = createColumnHelper<AppImage>();

function DeleteImage({ image }: { image: AppImage }) {
  const remove = useDeleteImage();
  return (
    <ConfirmDelete
      title="删除应用镜像"
      description={`确定要从应用市场删除 ${image.name} 吗？已创建的容器不受影响。`}
      loading={remove.isPending}
      onDelete={() => remove.mutateAsync(image.id)}
    />
  );
}

/** 应用镜像: the cards of the app market. */
export function AppImagesPanel() {
  const images = useAdminImages();
  const [editing, setEditing] = useState<AppImage | 'new' | null>(null);
  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: '名称',
        cell: ({ row }) => (
          <Space>
            <AppIcon icon={row.original.icon} name={row.original.name} size={32} />
            <Typography.Text strong>{row.original.name}</Typography.Text>
          </Space>
        ),
      }),
      column.accessor('category', {
        header: '分类',
        cell: (info) => <Tag>{categoryLabel(info.getValue())}</Tag>,
      }),
      column.display({
        id: 'version',
        header: '框架版本',
        cell: ({ row }) => `${row.original.framework.name} ${row.original.framework.version.name}`,
      }),
      column.accessor('description', {
        header: '描述',
        cell: (info) => (
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: 0, maxWidth: 320 }}>
            {info.getValue() || '-'}
          </Typography.Paragraph>
        ),
      }),
      column.accessor('created_at', { header: '创建时间', cell: (info) => formatDateTime(info.getValue()) }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: ({ row }) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing(row.original)}>
              编辑
            </Button>
            <DeleteImage image={row.original} />
          </Space>
        ),
      }),
    ],
    [],
  );
  const table = useReactTable({
    data: images.data?.items ?? [],
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageIndex: 0, pageSize: 10 } },
  });

  return (
    <Flex vertical gap={16}>
      <Flex justify="flex-end">
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          新建应用镜像
        </Button>
      </Flex>
      {images.isError ? (
        <Alert type="error" showIcon message="获取应用镜像失败" description={errorDetail(images.error)} />
      ) : null}
      <DataTable
        table={table}
        loading={images.isPending}
        pagination
        aria-label="应用镜像列表"
        emptyText="暂无应用镜像"
        rowTestId={(row) => `image-row-${row.id}`}
      />
      {editing ? (
        <AppImageDialog image={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </Flex>
  );
}
