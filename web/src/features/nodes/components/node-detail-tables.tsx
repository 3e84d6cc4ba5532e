import type { NodeGpu, UnknownContainer } from '@gpucloud/control-plane/api';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Tag, Typography } from 'antd';
import { DataTable } from '../../../components/data-table';

const gpuColumn = createColumnHelper<NodeGpu>();
const gpuColumns = [
  gpuColumn.accessor('index', { header: '序号' }),
  gpuColumn.accessor('model', { header: '型号' }),
  gpuColumn.accessor('memory_total_mib', {
    header: '显存',
    cell: (info) => `${Math.round(info.getValue() / 1024)} GB`,
  }),
  gpuColumn.accessor('uuid', {
    header: 'UUID',
    cell: (info) => <Typography.Text className="mono">{info.getValue()}</Typography.Text>,
  }),
  gpuColumn.accessor('allocated', {
    header: '分配',
    cell: (info) => (info.getValue() ? <Tag color="processing">已分配</Tag> : <Tag>空闲</Tag>),
  }),
];

export function NodeGpuTable({ gpus }: { gpus: NodeGpu[] }) {
  const table = useReactTable({
    data: gpus,
    columns: gpuColumns,
    getRowId: (g) => String(g.index),
    getCoreRowModel: getCoreRowModel(),
  });
  return <DataTable table={table} aria-label="节点 GPU" emptyText="没有 GPU" />;
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
