import type { NodeGpu, UnknownContainer } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table';
import { gpuStateDisplay, shortUuid } from '../../../lib/gpu';
import { nvlinkPeerLabels } from '../node-rules';

const gpuColumn = createColumnHelper<NodeGpu>();

function gpuColumnsFor(gpus: NodeGpu[]) {
  return [
    gpuColumn.accessor('index', { header: '序号' }),
    gpuColumn.accessor('pci_bus_id', {
      header: '总线 ID',
      cell: (info) => <Typography.Text className="mono">{info.getValue() || '-'}</Typography.Text>,
    }),
    gpuColumn.accessor('uuid', {
      header: 'UUID',
      cell: (info) => (
        <Tooltip title={info.getValue()}>
          <Typography.Text
            className="mono"
            copyable={{ text: info.getValue(), tooltips: ['复制', '已复制'] }}
          >
            {shortUuid(info.getValue())}
          </Typography.Text>
        </Tooltip>
      ),
    }),
    gpuColumn.accessor('model', { header: '型号' }),
    gpuColumn.accessor('memory_total_mib', {
      header: '显存',
      cell: (info) => (info.getValue() ? `${Math.round(info.getValue() / 1024)} GB` : '-'),
    }),
    gpuColumn.accessor('state', {
      header: '状态',
      cell: ({ row }) => {
        const gpu = row.original;
        const display = gpuStateDisplay(gpu.state);
        const problem = gpu.health_problem || (gpu.state === 'fabric' ? gpu.fabric_state : '');
        const tag = <Tag color={display.color}>{display.label}</Tag>;
        return problem ? (
          <Space size={4} wrap>
            <Tooltip title={problem}>{tag}</Tooltip>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {problem}
            </Typography.Text>
          </Space>
        ) : (
          tag
        );
      },
    }),
    gpuColumn.accessor('persistence_mode', {
      header: '持久模式',
      cell: (info) => (info.getValue() ? <Tag color="success">开</Tag> : <Tag color="warning">关</Tag>),
    }),
    gpuColumn.accessor('numa_node', {
      header: 'NUMA',
      cell: (info) => (info.getValue() >= 0 ? info.getValue() : '-'),
    }),
    gpuColumn.accessor('nvlink_peers', {
      header: 'NVLink',
      cell: ({ row }) => {
        const peers = nvlinkPeerLabels(row.original, gpus);
        return peers.length ? peers.join(', ') : '-';
      },
    }),
    gpuColumn.accessor('container_id', {
      header: '使用中',
      cell: ({ row }) =>
        row.original.allocated ? (
          <Typography.Text className="mono">{row.original.container_id || '已分配'}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">空闲</Typography.Text>
        ),
    }),
  ];
}

/** The node's GPUs, one row per UUID (the index and bus id are for people). */
export function NodeGpuTable({ gpus }: { gpus: NodeGpu[] }) {
  const columns = useMemo(() => gpuColumnsFor(gpus), [gpus]);
  const table = useReactTable({
    data: gpus,
    columns,
    getRowId: (g) => g.uuid || String(g.index),
    getCoreRowModel: getCoreRowModel(),
  });
  return (
    <DataTable
      table={table}
      aria-label="节点 GPU"
      emptyText="没有 GPU"
      rowTestId={(g) => `node-gpu-${g.uuid}`}
    />
  );
}

const unknownColumn = createColumnHelper<UnknownContainer>();
const unknownColumns = [
  unknownColumn.accessor('container_id', { header: '容器编号' }),
  unknownColumn.accessor('state', { header: '状态' }),
  unknownColumn.accessor('owner_id', { header: '所有者' }),
  unknownColumn.accessor('image', { header: '镜像' }),
];

export function UnknownContainersTable({ containers }: { containers: UnknownContainer[] }) {
  const table = useReactTable({
    data: containers,
    columns: unknownColumns,
    getRowId: (c) => c.container_id,
    getCoreRowModel: getCoreRowModel(),
  });
  return <DataTable table={table} aria-label="未登记的容器" emptyText="无" />;
}
