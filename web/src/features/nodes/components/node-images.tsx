import type { NodeImage } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Progress, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table';
import { withDetail, withServerDetail } from '../../../lib/api-client';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { pullPhaseLabel } from '../../containers/status';
import { useNodeImages, useWarmImage } from '../api/node-images';

const column = createColumnHelper<NodeImage>();

function ImageStatus({ image }: { image: NodeImage }) {
  switch (image.status) {
    case 'present':
      return <Tag color="success">已缓存</Tag>;
    case 'pulling':
      // The percentage and the phase come from the bytes the node pulls (下载中, then 解压中).
      return (
        <Space size={4}>
          <Tag color="processing">预热中 {image.progress}%</Tag>
          <Progress
            percent={image.progress}
            size="small"
            showInfo={false}
            style={{ width: 80, margin: 0 }}
            aria-label="预热进度"
          />
          <Typography.Text type="secondary">{pullPhaseLabel(image.pull_phase)}</Typography.Text>
        </Space>
      );
    case 'failed':
      return (
        <Space direction="vertical" size={0}>
          <Tag color="error">预热失败</Tag>
          {image.error ? <Typography.Text type="danger">{image.error}</Typography.Text> : null}
        </Space>
      );
    default:
      return <Tag>未缓存</Tag>;
  }
}

function WarmButton({ nodeId, image }: { nodeId: number | string; image: NodeImage }) {
  const { message } = App.useApp();
  const warm = useWarmImage(nodeId);
  if (!image.in_catalogue || image.status === 'present' || image.status === 'pulling') return null;
  return (
    <Button
      type="link"
      size="small"
      loading={warm.isPending}
      onClick={() =>
        warm.mutateAsync(image.image).then(
          () => {
            message.success(`已开始预热 ${image.image}`);
          },
          (error: unknown) => {
            message.error(withServerDetail('预热失败', error));
          },
        )
      }
    >
      {image.status === 'failed' ? '重新预热' : '预热'}
    </Button>
  );
}

/**
 * 节点 → 镜像: the catalogue's images on this node. 预热 pulls one ahead of demand, so a purchase
 * of it starts at once (the market marks such servers 秒级启动).
 */
export function NodeImagesSection({ nodeId }: { nodeId: number | string }) {
  const images = useNodeImages(nodeId);
  const data = images.data;
  const columns = useMemo(
    () => [
      column.accessor('image', {
        header: '镜像',
        cell: ({ row }) => (
          <Space direction="vertical" size={0}>
            <Typography.Text className="mono">{row.original.image}</Typography.Text>
            <Typography.Text type="secondary">
              {row.original.in_catalogue ? row.original.versions.join('、') : '不在镜像目录中'}
            </Typography.Text>
          </Space>
        ),
      }),
      column.accessor('status', { header: '状态', cell: ({ row }) => <ImageStatus image={row.original} /> }),
      column.accessor('size_bytes', {
        header: '大小',
        cell: (info) => {
          const size = info.getValue();
          return size === null ? '-' : formatBytes(size);
        },
      }),
      column.display({
        id: 'actions',
        header: '操作',
        cell: ({ row }) => <WarmButton nodeId={nodeId} image={row.original} />,
      }),
    ],
    [nodeId],
  );
  const table = useReactTable({
    data: data?.items ?? [],
    columns,
    getRowId: (i) => i.image,
    getCoreRowModel: getCoreRowModel(),
  });
  const disk = data?.disk_total_bytes
    ? `镜像磁盘：可用 ${formatBytes(data.disk_free_bytes ?? 0)} / 共 ${formatBytes(data.disk_total_bytes)}`
    : '镜像磁盘：未知';
  return (
    <div>
      <Typography.Title level={5}>镜像</Typography.Title>
      <Typography.Paragraph type="secondary">
        节点上已缓存的镜像创建实例时无需拉取，秒级启动。
        {disk}
        {data?.listed_at ? `，最近同步：${formatDateTime(data.listed_at)}` : ''}
      </Typography.Paragraph>
      <DataTable
        table={table}
        aria-label="节点镜像"
        emptyText={images.isError ? withDetail('获取镜像列表失败', images.error) : '镜像目录为空'}
        rowTestId={(i) => `node-image-${i.image}`}
      />
    </div>
  );
}
