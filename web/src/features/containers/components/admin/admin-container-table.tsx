import type { Container } from '@gpucloud/control-plane/api';
import { createColumnHelper } from '@tanstack/react-table';
import { Space, Tag, Typography } from 'antd';
import { billingTypeLabel } from '../../../../lib/billing-types';
import { formatDateTime, formatYuan } from '../../../../lib/format';
import { sshAddress } from '../../connection';
import { ContainerGpuCell, GpuProblemTag } from '../container-gpu';
import { ContainerStatusTag } from '../container-status-tag';
import { DiskWarningTag } from '../disk-warning';
import { AdminContainerActions } from './admin-container-actions';

const column = createColumnHelper<Container>();

/** The columns of 容器管理: every user's containers, with their owner and node. */
export const adminContainerColumns = [
  column.accessor('name', {
    header: '容器',
    cell: ({ row }) => (
      <Space direction="vertical" size={0}>
        <Typography.Text strong>{row.original.name || '-'}</Typography.Text>
        <Typography.Text type="secondary" className="mono">
          {row.original.container_id}
        </Typography.Text>
      </Space>
    ),
  }),
  column.accessor('username', { header: '用户', cell: (info) => info.getValue() || '-' }),
  column.accessor('status', {
    header: '状态',
    cell: ({ row }) => (
      <Space size={4} wrap>
        <ContainerStatusTag
          status={row.original.status}
          pullProgress={row.original.pull_progress}
          pullPhase={row.original.pull_phase}
        />
        {row.original.no_gpu ? <Tag color="orange">无卡模式</Tag> : null}
        <GpuProblemTag container={row.original} />
        <DiskWarningTag container={row.original} />
      </Space>
    ),
  }),
  column.accessor('image_name', { header: '镜像', cell: (info) => info.getValue() || '-' }),
  column.display({
    id: 'gpu',
    header: 'GPU',
    cell: ({ row }) => <ContainerGpuCell container={row.original} />,
  }),
  column.display({
    id: 'node',
    header: '节点',
    cell: ({ row }) => (
      <Space direction="vertical" size={0}>
        <span>{row.original.node_name || '-'}</span>
        <Typography.Text type="secondary">{sshAddress(row.original) ?? ''}</Typography.Text>
      </Space>
    ),
  }),
  column.accessor('billing_type', { header: '计费方式', cell: (info) => billingTypeLabel(info.getValue()) }),
  column.accessor('total_cost', {
    header: '累计费用',
    meta: { align: 'right' },
    cell: (info) => (typeof info.getValue() === 'number' ? formatYuan(info.getValue() ?? 0) : '-'),
  }),
  column.accessor('create_time', { header: '创建时间', cell: (info) => formatDateTime(info.getValue()) }),
  column.display({
    id: 'actions',
    header: '操作',
    meta: { sticky: 'right' },
    cell: ({ row }) => <AdminContainerActions container={row.original} />,
  }),
];
