import {
  createColumnHelper,
  getCoreRowModel,
  getPaginationRowModel,
  type PaginationState,
  useReactTable,
} from '@tanstack/react-table';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DataTable, usePagedTable } from './data-table';

interface Fruit {
  id: string;
  name: string;
}

const column = createColumnHelper<Fruit>();
const columns = [column.accessor('name', { header: '名称' })];

function FruitTable({ data }: { data: Fruit[] }) {
  const table = useReactTable({
    data,
    columns,
    getRowId: (row) => row.id,
    getCoreRowModel: getCoreRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    initialState: { pagination: { pageIndex: 0, pageSize: 10 } },
  });
  return <DataTable table={table} pagination rowTestId={(row) => `fruit-${row.id}`} emptyText="没有水果" />;
}

/** A server-paged list: each page's rows are what the "server" answers for that page. */
function ServerFruitTable({ total }: { total: number }) {
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 10 });
  const first = pagination.pageIndex * pagination.pageSize;
  const rows = fruits(total).slice(first, first + pagination.pageSize);
  const table = usePagedTable({
    rows,
    total,
    columns,
    pagination,
    onPaginationChange: setPagination,
    rowId: (row) => row.id,
  });
  return <DataTable table={table} pagination rowTestId={(row) => `fruit-${row.id}`} />;
}

const fruits = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i), name: `水果${i}` }));

describe('DataTable', () => {
  it('renders headers and one row per item with its test id', () => {
    render(<FruitTable data={fruits(2)} />);
    expect(screen.getByRole('columnheader', { name: '名称' })).toBeTruthy();
    expect(within(screen.getByTestId('fruit-1')).getByText('水果1')).toBeTruthy();
  });

  it('shows the empty text when there are no rows', () => {
    render(<FruitTable data={[]} />);
    expect(screen.getByText('没有水果')).toBeTruthy();
  });

  it('pages client-side rows', () => {
    render(<FruitTable data={fruits(12)} />);
    expect(screen.getByText('共 12 条')).toBeTruthy();
    expect(screen.queryByTestId('fruit-10')).toBeNull();
    fireEvent.click(screen.getByTitle('2'));
    expect(screen.getByTestId('fruit-10')).toBeTruthy();
  });

  it('a server-paged table shows the server total and asks for the next page', () => {
    render(<ServerFruitTable total={95} />);
    expect(screen.getByText('共 95 条')).toBeTruthy();
    expect(screen.getByTestId('fruit-9')).toBeTruthy();
    fireEvent.click(screen.getByTitle('10'));
    expect(screen.getByTestId('fruit-94')).toBeTruthy();
    expect(screen.queryByTestId('fruit-9')).toBeNull();
  });
});
