import type { Container } from '@gpucloud/control-plane/api';
import { getCoreRowModel, getPaginationRowModel, useReactTable } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table';
import type { ContainerPanel } from '../types';
import { containerColumns } from './container-columns';

export interface ContainerTableProps {
  containers: Container[];
  loading: boolean;
  onOpenPanel: (container: Container, panel: ContainerPanel) => void;
}

export function ContainerTable({ containers, loading, onOpenPanel }: ContainerTableProps) {
  const columns = useMemo(() => containerColumns(onOpenPanel), [onOpenPanel]);
  const table = useReactTable({
    data: containers,
    columns,
    getRowId: (row) => row.container_id,
    getCoreRowModel: getCoreRowModel(),
    // GET /api/containers answers the whole list, so pages are cut in the browser.
    getPaginationRowModel: getPaginationRowModel(),
    autoResetPageIndex: false,
    initialState: { pagination: { pageIndex: 0, pageSize: 10 } },
  });
  return (
    <DataTable
      table={table}
      loading={loading}
      pagination
      aria-label="容器列表"
      emptyText="暂无容器"
      rowTestId={(row) => `container-row-${row.container_id}`}
    />
  );
}
