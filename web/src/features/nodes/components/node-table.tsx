import type { GpuNode } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table';
import { withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useDeleteNode } from '../api/node-commands';
import { gpuFreeSummary, gpuSummary, nodeStatusDisplay } from '../node-rules';

const column = createColumnHelper<GpuNode>();

function DeleteNodeButton({ node }: { node: GpuNode }) {
  const { message } = App.useApp();
  const remove = useDeleteNode();
  return (
    <Popconfirm
      title="删除节点"
      description={`确定要删除节点 ${node.name} 吗？仍有容器的节点不能删除。`}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        remove.mutateAsync(node.id).then(
          () => {
            message.success('节点已删除');
          },
          (error: unknown) => {
            message.error(withDetail('删除节点失败', error));
          },
        )
      }
    >
      <Button type="link" size="small" danger loading={remove.isPending}>
        删除
      </Button>
    </Popconfirm>
  );
}

function columnsFor(onShowDetail: (node: GpuNode) => void) {
  return [
    column.accessor('name', {
      header: '名称',
      cell: (info) => <Typography.Text strong>{info.getValue()}</Typography.Text>,
    }),
    column.accessor('address', {
      header: '地址',
      cell: ({ row }) => (
        <Space direction="vertical" size={0}>
          <Typography.Text className="mono">{row.original.address}</Typography.Text>
          {row.original.public_host ? (
            <Typography.Text type="secondary">公网 {row.original.public_host}</Typography.Text>
          ) : null}
        </Space>
      ),
    }),
    column.accessor('region', { header: '地区' }),
    column.accessor('status', {
      header: '状态',
      cell: (info) => {
        const display = nodeStatusDisplay(info.getValue());
        return <Tag color={display.color}>{display.label}</Tag>;
      },
    }),
    column.display({
      id: 'gpu',
      header: 'GPU',
      cell: ({ row }) => (
        <Space direction="vertical" size={0}>
          <Space size={4}>
            <span>{gpuSummary(row.original)}</span>
            {row.original.simulated ? <Tag color="purple">模拟 GPU</Tag> : null}
            {row.original.gpu_probe_error ? (
              <Tooltip title={row.original.gpu_probe_error}>
                <Tag color="error">GPU 探测失败</Tag>
              </Tooltip>
            ) : null}
          </Space>
          {row.original.gpu_total ? (
            <Typography.Text type="secondary">{gpuFreeSummary(row.original)}</Typography.Text>
          ) : null}
        </Space>
      ),
    }),
    column.display({
      id: 'docker',
      header: 'Docker',
      cell: ({ row }) =>
        row.original.docker_available ? (
          <Tag color="success">可用</Tag>
        ) : (
          <Typography.Text type="danger">{row.original.docker_error || '不可用'}</Typography.Text>
        ),
    }),
    column.accessor('last_heartbeat_at', {
      header: '最近心跳',
      cell: (info) => formatDateTime(info.getValue()),
    }),
    column.display({
      id: 'actions',
      header: '操作',
      cell: ({ row }) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => onShowDetail(row.original)}>
            详情
          </Button>
          <DeleteNodeButton node={row.original} />
        </Space>
      ),
    }),
  ];
}

export function NodeTable({
  nodes,
  total,
  loading,
  onShowDetail,
}: {
  nodes: GpuNode[];
  total: number;
  loading: boolean;
  onShowDetail: (node: GpuNode) => void;
}) {
  const data = useMemo(() => nodes, [nodes]);
  const columns = useMemo(() => columnsFor(onShowDetail), [onShowDetail]);
  const table = useReactTable({
    data,
    columns,
    rowCount: total,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <DataTable
      table={table}
      loading={loading}
      aria-label="节点列表"
      emptyText="暂无节点，点击「添加节点」接入第一台 GPU 主机"
      rowTestId={(row) => `node-row-${row.id}`}
    />
  );
}
