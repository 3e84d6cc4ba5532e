import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { AdminProduct } from '@gpucloud/control-plane/api';
import {
  createColumnHelper,
  getCoreRowModel,
  getPaginationRowModel,
  useReactTable,
} from '@tanstack/react-table';
import { Alert, App, Button, Space, Switch, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { errorDetail, withServerDetail } from '../../../lib/api-client';
import { formatYuan } from '../../../lib/format';
import { isWindowsServer } from '../../market/products';
import { useAdminProducts, useDeleteProduct, useSaveProduct } from '../api/products';
import { ConfirmDelete } from './confirm-delete';
import { ProductDialog, productFormValues, productInputFrom } from './product-dialog';

const column = createColumnHelper<AdminProduct>();

function EnabledSwitch({ product }: { product: AdminProduct }) {
  const { message } = App.useApp();
  const save = useSaveProduct();
  return (
    <Switch
      checked={product.enabled}
      loading={save.isPending}
      checkedChildren="上架"
      unCheckedChildren="下架"
      aria-label={`${product.name} 上架状态`}
      onChange={(enabled) =>
        save.mutate(
          { productId: product.id, input: productInputFrom({ ...productFormValues(product), enabled }) },
          {
            onSuccess: () => {
              message.success(enabled ? '已上架' : '已下架');
            },
            onError: (error) => {
              message.error(withServerDetail('保存失败', error));
            },
          },
        )
      }
    />
  );
}

function DeleteProduct({ product }: { product: AdminProduct }) {
  const remove = useDeleteProduct();
  return (
    <ConfirmDelete
      title="删除产品"
      description={`确定要删除 ${product.name} 吗？仍有容器的服务器请先下架。`}
      loading={remove.isPending}
      onDelete={() => remove.mutateAsync(product.id)}
    />
  );
}

/** 产品管理 (/admin/products): the servers the instance market sells, enabled or not. */
export function ProductsPage() {
  const products = useAdminProducts();
  const [editing, setEditing] = useState<AdminProduct | 'new' | null>(null);
  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: '名称',
        cell: ({ row }) => (
          <Space size={4}>
            <Typography.Text strong>{row.original.name}</Typography.Text>
            {row.original.simulated ? <Tag color="purple">模拟 GPU</Tag> : null}
          </Space>
        ),
      }),
      column.accessor('node_name', { header: '节点', cell: (info) => info.getValue() || '-' }),
      column.accessor('region', { header: '地区' }),
      column.accessor('gpu_type', { header: 'GPU 型号' }),
      column.accessor('gpu_count', { header: 'GPU（可用/总数）', meta: { align: 'center' } }),
      column.accessor('price', {
        header: '单价',
        meta: { align: 'right' },
        cell: (info) => `${formatYuan(info.getValue())}/卡/时`,
      }),
      column.accessor('no_gpu_price', {
        header: '无卡价格',
        meta: { align: 'right' },
        cell: (info) => `${formatYuan(info.getValue() ?? 0)}/时`,
      }),
      column.display({
        id: 'cpu',
        header: 'CPU / 内存 / 硬盘',
        cell: ({ row }) =>
          `${row.original.cpu_model || '-'} · ${row.original.cpu_cores} 核 / ${row.original.memory} / ${row.original.disk_size}`,
      }),
      column.display({
        id: 'system',
        header: '系统',
        cell: ({ row }) =>
          isWindowsServer(row.original) ? <Tag color="blue">Windows</Tag> : <Tag color="orange">Ubuntu</Tag>,
      }),
      column.accessor('enabled', {
        header: '上架',
        cell: ({ row }) => <EnabledSwitch product={row.original} />,
      }),
      column.display({
        id: 'actions',
        header: '操作',
        meta: { sticky: 'right' },
        cell: ({ row }) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing(row.original)}>
              编辑
            </Button>
            <DeleteProduct product={row.original} />
          </Space>
        ),
      }),
    ],
    [],
  );
  const table = useReactTable({
    data: products.data?.items ?? [],
    columns,
    getRowId: (row) => String(row.id),
    getCoreRowModel: getCoreRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    autoResetPageIndex: false,
    initialState: { pagination: { pageIndex: 0, pageSize: 10 } },
  });

  return (
    <div>
      <PageHeader
        title="产品管理"
        extra={
          <Space>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void products.refetch()}
              loading={products.isFetching}
            >
              刷新
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              新建产品
            </Button>
          </Space>
        }
      />
      {products.isError ? (
        <Alert
          type="error"
          showIcon
          message="获取产品列表失败"
          description={errorDetail(products.error)}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <DataTable
        table={table}
        loading={products.isPending}
        pagination
        aria-label="产品列表"
        emptyText="暂无产品"
        rowTestId={(row) => `admin-product-row-${row.id}`}
      />
      {editing ? (
        <ProductDialog product={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </div>
  );
}
