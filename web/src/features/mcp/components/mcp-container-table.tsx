import type { McpContainer } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { App, Button, Popconfirm, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table';
import { withDetail } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { DestroyContainerButton } from '../../containers/components/destroy-container-button';
import { useDeleteMcpContainer, useStartMcpContainer, useStopMcpContainer } from '../api/mcp-commands';
import { canResetPassword, canStart, canStop, mcpStatusDisplay } from '../status';

export type McpPanel = 'logs' | 'reset-password';

interface ActionsProps {
  container: McpContainer;
  onOpen: (container: McpContainer, panel: McpPanel) => void;
}

function McpActions({ container, onOpen }: ActionsProps) {
  const { message } = App.useApp();
  const start = useStartMcpContainer();
  const stop = useStopMcpContainer();
  const remove = useDeleteMcpContainer();
  const id = container.container_id;
  const { status } = container;

  const run = (command: (id: string) => Promise<unknown>, success: string, failure: string) =>
    command(id).then(
      () => {
        message.success(success);
      },
      (error: unknown) => {
        message.error(withDetail(failure, error));
      },
    );

  return (
    <Space size={0} wrap>
      <Button
        type="link"
        size="small"
        disabled={!canStart(status)}
        loading={start.isPending}
        onClick={() => void run(start.mutateAsync, '启动成功', '启动容器失败')}
      >
        启动
      </Button>
      <Popconfirm
        title="停止容器"
        description="确定要停止该容器吗？"
        okText="确定"
        cancelText="取消"
        disabled={!canStop(status)}
        onConfirm={() => run(stop.mutateAsync, '停止成功', '停止容器失败')}
      >
        <Button type="link" size="small" disabled={!canStop(status)} loading={stop.isPending}>
          停止
        </Button>
      </Popconfirm>
      <Button
        type="link"
        size="small"
        disabled={!canResetPassword(status)}
        onClick={() => onOpen(container, 'reset-password')}
      >
        重置密码
      </Button>
      <Button type="link" size="small" onClick={() => onOpen(container, 'logs')}>
        日志
      </Button>
      <DestroyContainerButton
        verb="删除"
        loading={remove.isPending}
        onConfirm={() => run(remove.mutateAsync, '删除成功', '删除容器失败')}
      />
    </Space>
  );
}

const column = createColumnHelper<McpContainer>();

function buildColumns(onOpen: ActionsProps['onOpen']) {
  return [
    column.accessor('container_id', {
      header: '容器ID',
      cell: (info) => <Typography.Text className="mono">{info.getValue()}</Typography.Text>,
    }),
    column.accessor('name', { header: '名称' }),
    column.accessor('image_name', { header: '镜像' }),
    column.accessor('gpu_count', { header: 'GPU 数量', meta: { align: 'center' } }),
    column.accessor('status', {
      header: '状态',
      cell: ({ row }) => {
        const display = mcpStatusDisplay(row.original.status);
        return (
          <Space direction="vertical" size={0}>
            <Tag color={display.color}>{display.label}</Tag>
            {row.original.status === 'failed' && row.original.start_error ? (
              <Typography.Text type="danger" style={{ fontSize: 12 }}>
                {row.original.start_error}
              </Typography.Text>
            ) : null}
          </Space>
        );
      },
    }),
    column.display({
      id: 'ssh',
      header: 'SSH',
      cell: ({ row }) =>
        row.original.ssh_server && row.original.ssh_port ? (
          <Typography.Text className="mono" copyable>
            {`ssh -p ${row.original.ssh_port} root@${row.original.ssh_server}`}
          </Typography.Text>
        ) : (
          '-'
        ),
    }),
    column.accessor('created_at', { header: '创建时间', cell: (info) => formatDateTime(info.getValue()) }),
    column.display({
      id: 'actions',
      header: '操作',
      meta: { sticky: 'right' },
      cell: ({ row }) => <McpActions container={row.original} onOpen={onOpen} />,
    }),
  ];
}

export function McpContainerTable({
  containers,
  loading,
  onOpen,
}: {
  containers: McpContainer[];
  loading: boolean;
  onOpen: ActionsProps['onOpen'];
}) {
  const columns = useMemo(() => buildColumns(onOpen), [onOpen]);
  const table = useReactTable({
    data: containers,
    columns,
    getRowId: (row) => row.container_id,
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <DataTable
      table={table}
      loading={loading}
      aria-label="MCP 容器列表"
      emptyText="暂无容器"
      rowTestId={(row) => `mcp-row-${row.container_id}`}
    />
  );
}
