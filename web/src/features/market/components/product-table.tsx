import type { CloudProduct } from '@gpucloud/control-plane/api';
import {
  createColumnHelper,
  getCoreRowModel,
  getPaginationRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { Button, Space, Tag } from 'antd';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table';
import { formatYuan } from '../../../lib/format';
import { canPurchase, preferWarm, startsAtOnce } from '../products';
import type { EntityId } from '../types';

const column = createColumnHelper<CloudProduct>();

function productColumns(onBuy: (product: CloudProduct) => void, warmFor: EntityId | undefined) {
  return [
    column.accessor('name', {
      header: '名称',
      cell: ({ row }) => (
        <Space size={4}>
          <span>{row.original.name}</span>
          {row.original.simulated ? <Tag color="purple">模拟 GPU</Tag> : null}
          {startsAtOnce(row.original, warmFor) ? (
            <Tag color="green" title="该服务器已缓存所选镜像，创建实例无需拉取">
              秒级启动
            </Tag>
          ) : null}
        </Space>
      ),
    }),
    column.accessor('region', { header: '地区' }),
    column.accessor('gpu_type', { header: 'GPU 型号' }),
    column.accessor('gpu_count', { header: 'GPU 数量', meta: { align: 'center' } }),
    column.display({
      id: 'cpu',
      header: 'CPU',
      cell: ({ row }) => `${row.original.cpu_model} · ${row.original.cpu_cores} 核`,
    }),
    column.accessor('memory', { header: '内存' }),
    column.accessor('disk_size', { header: '硬盘' }),
    column.accessor('price', {
      header: '单价',
      cell: (info) => <strong style={{ color: '#fa541c' }}>{formatYuan(info.getValue())}/卡/时</strong>,
    }),
    column.accessor('status', {
      header: '状态',
      cell: (info) =>
        info.getValue() === 'available' ? (
          <Tag color="success">可用</Tag>
        ) : (
          <Tag color="default">{info.getValue() === 'offline' ? '离线' : info.getValue()}</Tag>
        ),
    }),
    column.display({
      id: 'actions',
      header: '操作',
      cell: ({ row }) => (
        <Button
          type="primary"
          size="small"
          data-testid={`buy-${row.original.id}`}
          disabled={!canPurchase(row.original)}
          onClick={() => onBuy(row.original)}
        >
          购买
        </Button>
      ),
    }),
  ];
}

export interface ProductTableProps {
  products: CloudProduct[];
  loading: boolean;
  onBuy: (product: CloudProduct) => void;
  /** The version chosen in the app market: servers holding its image are marked and listed first. */
  warmFor?: EntityId | undefined;
}

export function ProductTable({ products, loading, onBuy, warmFor }: ProductTableProps) {
  const columns = useMemo(() => productColumns(onBuy, warmFor), [onBuy, warmFor]);
  const data = useMemo(() => preferWarm(products, warmFor), [products, warmFor]);
  const table = useReactTable({
    data,
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    // The product list endpoint has no paging parameters; pages are cut in the browser.
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageIndex: 0, pageSize: 10 } },
  });
  return (
    <DataTable
      table={table}
      loading={loading}
      pagination
      aria-label="服务器列表"
      emptyText="暂无符合条件的服务器"
      rowTestId={(row) => `product-row-${row.id}`}
    />
  );
}
