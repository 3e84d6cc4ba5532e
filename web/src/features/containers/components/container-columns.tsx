import type { Container } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { billingTypeLabel } from '../../../lib/billing-types';
import { formatDateTime } from '../../../lib/format';
import { jupyterUrl, NO_JUPYTER, releaseNote, sshAddress } from '../connection';
import type { ContainerPanel } from '../types';
import { ContainerActions } from './container-actions';
import { ContainerGpuCell, GpuProblemTag } from './container-gpu';
import { ContainerStatusTag } from './container-status-tag';
import { DiskWarningTag } from './disk-warning';
import { PasswordCell } from './password-cell';

const column = createColumnHelper<Container>();

export function containerColumns(onOpenPanel: (container: Container, panel: ContainerPanel) => void) {
  return [
    column.accessor('name', {
      header: '名称',
      cell: (info) => (
        <Typography.Text strong>{info.getValue() || info.row.original.container_id}</Typography.Text>
      ),
    }),
    column.accessor('status', {
      header: '状态',
      cell: (info) => (
        <Space size={4}>
          <ContainerStatusTag
            status={info.getValue()}
            pullProgress={info.row.original.pull_progress}
            pullPhase={info.row.original.pull_phase}
          />
          {info.row.original.node_status === 'offline' ? <Tag color="error">节点离线</Tag> : null}
          {info.row.original.no_gpu ? <Tag color="orange">无卡模式</Tag> : null}
          <GpuProblemTag container={info.row.original} />
          <DiskWarningTag container={info.row.original} />
          {info.row.original.pending_mounts ? (
            <Tooltip title="挂载点已修改，下次启动后生效">
              <Tag color="gold">待重启生效</Tag>
            </Tooltip>
          ) : null}
          {['failed', 'error'].includes(info.getValue()) && info.row.original.start_error ? (
            // Why it failed (a pull that failed, a start that did not come up): the user's next step.
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {info.row.original.start_error}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    }),
    column.accessor('image_name', { header: '镜像', cell: (info) => info.getValue() || '-' }),
    column.display({
      id: 'gpu',
      header: 'GPU',
      cell: ({ row }) => <ContainerGpuCell container={row.original} showSimulated />,
    }),
    column.accessor('billing_type', {
      header: '计费方式',
      cell: (info) => billingTypeLabel(info.getValue()),
    }),
    column.accessor('create_time', { header: '创建时间', cell: (info) => formatDateTime(info.getValue()) }),
    column.display({
      id: 'ssh',
      header: 'SSH 连接',
      cell: ({ row }) => {
        const address = sshAddress(row.original);
        return address ? <Typography.Text className="mono">{address}</Typography.Text> : '-';
      },
    }),
    column.display({
      id: 'password',
      header: '密码',
      cell: ({ row }) => <PasswordCell password={row.original.password} />,
    }),
    column.display({
      id: 'jupyter',
      header: 'Jupyter',
      cell: ({ row }) => {
        const url = jupyterUrl(row.original);
        if (row.original.jupyter === 'absent')
          return <Typography.Text type="secondary">{NO_JUPYTER}</Typography.Text>;
        return url ? (
          <a href={url} target="_blank" rel="noreferrer">
            {url}
          </a>
        ) : (
          '-'
        );
      },
    }),
    column.display({
      id: 'custom-ports',
      header: '自定义端口',
      cell: ({ row }) => {
        const ports = row.original.custom_ports ?? [];
        if (ports.length === 0) return '-';
        return (
          <Space size={[4, 4]} wrap data-testid={`custom-ports-${row.original.container_id}`}>
            {ports.map((port) => (
              <Tag key={port} className="mono">
                {port}
              </Tag>
            ))}
          </Space>
        );
      },
    }),
    column.display({
      id: 'release',
      header: '释放/到期',
      cell: ({ row }) => (
        <Typography.Text type="secondary">{releaseNote(row.original, formatDateTime)}</Typography.Text>
      ),
    }),
    column.display({
      id: 'actions',
      header: '操作',
      meta: { sticky: 'right' },
      cell: ({ row }) => <ContainerActions container={row.original} onOpenPanel={onOpenPanel} />,
    }),
  ];
}
