import type { GpuNode } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table';
import { ApiError, errorDetail, withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useDeleteNode, useEndMaintenance, useUpgradeNode } from '../api/node-commands';
import {
  agentVersionLabel,
  diskFreeLabel,
  diskLow,
  gpuSummary,
  gpuUsageLabel,
  HEARTBEAT_LATE_MS,
  heartbeatAgeLabel,
  maintenanceLabel,
  nodeStatusDisplay,
} from '../node-rules';

const column = createColumnHelper<GpuNode>();

function DeleteNodeButton({ node }: { node: GpuNode }) {
  const { message, modal } = App.useApp();
  const remove = useDeleteNode();
  return (
    <Popconfirm
      title="删除节点"
      description={`确定要删除节点 ${node.name} 吗？仍有容器或存储卷的节点不能删除。`}
      okText="确定"
      cancelText="取消"
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        remove.mutateAsync(node.id).then(
          () => {
            message.success('节点已删除');
          },
          (error: unknown) => {
            // Refused because of what is still on it: the reply names it, shown until read.
            if (error instanceof ApiError && error.status === 409) {
              modal.error({
                title: `无法删除节点 ${node.name}`,
                content: errorDetail(error),
                okText: '知道了',
              });
            } else {
              message.error(withDetail('删除节点失败', error));
            }
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

function EndMaintenanceButton({ node }: { node: GpuNode }) {
  const { message } = App.useApp();
  const end = useEndMaintenance();
  return (
    <Popconfirm
      title="结束维护"
      description={`结束后节点 ${node.name} 将重新在市场售卖，容器所有者会收到通知。`}
      okText="确定"
      cancelText="取消"
      onConfirm={() =>
        end.mutateAsync(node.id).then(
          () => {
            message.success(`节点 ${node.name} 已结束维护`);
          },
          (error: unknown) => {
            message.error(withDetail('结束维护失败', error));
          },
        )
      }
    >
      <Button type="link" size="small" loading={end.isPending}>
        结束维护
      </Button>
    </Popconfirm>
  );
}

function UpgradeButton({ node }: { node: GpuNode }) {
  const { message } = App.useApp();
  const upgrade = useUpgradeNode();
  if (node.upgrading_since) return null;
  return (
    <Popconfirm
      title="升级节点代理"
      description="节点代理将升级到控制面的版本并重启，运行中的容器与 SSH 会话不受影响。"
      okText="升级"
      cancelText="取消"
      onConfirm={() =>
        upgrade.mutateAsync(node.id).then(
          (started) => {
            message.success(`节点 ${node.name} 开始升级到 ${started.to.version}`);
          },
          (error: unknown) => {
            message.error(withDetail('升级失败', error));
          },
        )
      }
    >
      <Button type="link" size="small" loading={upgrade.isPending} disabled={node.status === 'offline'}>
        升级
      </Button>
    </Popconfirm>
  );
}

function columnsFor(onShowDetail: (node: GpuNode) => void, onMaintain: (node: GpuNode) => void) {
  return [
    column.accessor('name', {
      header: '名称',
      cell: ({ row }) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong>{row.original.name}</Typography.Text>
          <Typography.Text type="secondary" className="mono">
            {row.original.address}
          </Typography.Text>
          <Typography.Text type="secondary">{row.original.region}</Typography.Text>
        </Space>
      ),
    }),
    column.accessor('status', {
      header: '状态',
      cell: ({ row }) => {
        const node = row.original;
        const display = nodeStatusDisplay(node.status);
        return (
          <Space direction="vertical" size={2}>
            <Space size={4} wrap>
              <Tag color={display.color}>{display.label}</Tag>
              {node.maintenance ? (
                <Tooltip title={maintenanceLabel(node.maintenance)}>
                  <Tag color="warning">维护中</Tag>
                </Tooltip>
              ) : null}
              {node.upgrading_since ? <Tag color="processing">升级中</Tag> : null}
            </Space>
            {node.incompatible_reason ? (
              <Typography.Text type="danger">{node.incompatible_reason}</Typography.Text>
            ) : null}
            {node.docker_available ? null : (
              <Typography.Text type="danger">Docker：{node.docker_error || '不可用'}</Typography.Text>
            )}
          </Space>
        );
      },
    }),
    column.accessor('heartbeat_age_ms', {
      header: '心跳',
      cell: ({ row }) => {
        const age = row.original.heartbeat_age_ms;
        const late = age === null || age > HEARTBEAT_LATE_MS;
        return (
          <Tooltip title={formatDateTime(row.original.last_heartbeat_at)}>
            <Typography.Text type={late ? 'danger' : undefined} data-testid="heartbeat-age">
              {heartbeatAgeLabel(age)}
            </Typography.Text>
          </Tooltip>
        );
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
            <Typography.Text type="secondary">{gpuUsageLabel(row.original.gpu_usage)}</Typography.Text>
          ) : null}
        </Space>
      ),
    }),
    column.display({
      id: 'driver',
      header: '驱动 / 工具包',
      cell: ({ row }) => {
        const node = row.original;
        return (
          <Space direction="vertical" size={0}>
            <span>驱动 {node.nvidia_driver_version || '-'}</span>
            {node.toolkit_unsafe ? (
              <Tooltip title={node.toolkit_unsafe_reason}>
                <Typography.Text type="danger" data-testid="toolkit-unsafe">
                  工具包 {node.container_toolkit_version || '-'}（不安全）
                </Typography.Text>
              </Tooltip>
            ) : (
              <span>工具包 {node.container_toolkit_version || '-'}</span>
            )}
          </Space>
        );
      },
    }),
    column.display({
      id: 'disk',
      header: '磁盘',
      cell: ({ row }) => {
        const n = row.original;
        const imageLow = diskLow(n.image_disk_free_bytes, n.image_disk_total_bytes);
        const volumeLow = diskLow(n.volume_disk_free_bytes, n.volume_disk_total_bytes);
        return (
          <Space direction="vertical" size={0}>
            <Typography.Text type={imageLow ? 'warning' : undefined}>
              镜像 {diskFreeLabel(n.image_disk_free_bytes, n.image_disk_total_bytes)}
            </Typography.Text>
            <Typography.Text type={volumeLow ? 'warning' : undefined}>
              存储卷 {diskFreeLabel(n.volume_disk_free_bytes, n.volume_disk_total_bytes)}
            </Typography.Text>
          </Space>
        );
      },
    }),
    column.display({
      id: 'agent',
      header: '代理版本',
      cell: ({ row }) => {
        const n = row.original;
        return (
          <Space direction="vertical" size={0}>
            <Space size={4}>
              <span className="mono">{agentVersionLabel(n)}</span>
              {n.agent_outdated ? <Tag color="warning">需升级</Tag> : null}
            </Space>
            {n.upgrade_error ? (
              <Typography.Text type="danger">升级失败：{n.upgrade_error}</Typography.Text>
            ) : null}
          </Space>
        );
      },
    }),
    column.accessor('last_error', {
      header: '最近错误',
      cell: ({ row }) =>
        row.original.last_error ? (
          <Space direction="vertical" size={0} style={{ maxWidth: 240 }}>
            <Typography.Text type="danger" ellipsis={{ tooltip: row.original.last_error }}>
              {row.original.last_error}
            </Typography.Text>
            <Typography.Text type="secondary">{formatDateTime(row.original.last_error_at)}</Typography.Text>
          </Space>
        ) : (
          <Typography.Text type="secondary">无</Typography.Text>
        ),
    }),
    column.display({
      id: 'actions',
      header: '操作',
      meta: { sticky: 'right' },
      cell: ({ row }) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => onShowDetail(row.original)}>
            详情
          </Button>
          {row.original.maintenance ? (
            <EndMaintenanceButton node={row.original} />
          ) : (
            <Button type="link" size="small" onClick={() => onMaintain(row.original)}>
              维护
            </Button>
          )}
          {row.original.agent_outdated ? <UpgradeButton node={row.original} /> : null}
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
  onMaintain,
}: {
  nodes: GpuNode[];
  total: number;
  loading: boolean;
  onShowDetail: (node: GpuNode) => void;
  onMaintain: (node: GpuNode) => void;
}) {
  const data = useMemo(() => nodes, [nodes]);
  const columns = useMemo(() => columnsFor(onShowDetail, onMaintain), [onShowDetail, onMaintain]);
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
