import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type PaginationState,
  type RowData,
  type Table,
  useReactTable,
} from '@tanstack/react-table';
import { Empty, Pagination, Spin, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import './data-table.css';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    align?: 'left' | 'center' | 'right';
    width?: number | string;
    /** Keeps the column in view while the table scrolls sideways (row actions). */
    sticky?: 'right';
  }
}

function stickyClass(sticky: 'right' | undefined): string | undefined {
  return sticky === 'right' ? 'data-table-sticky-right' : undefined;
}

const NO_ROWS: never[] = [];

export interface PagedTableOptions<TData> {
  /** The rows of the page shown (undefined while it loads). */
  rows: TData[] | undefined;
  /** How many rows the whole list has, on the server. */
  total: number | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: a column of any value type, as TanStack's ColumnDef
  columns: ColumnDef<TData, any>[];
  pagination: PaginationState;
  onPaginationChange: (next: PaginationState) => void;
  rowId: (row: TData) => string | number;
}

/** A table of one page of a list that the server pages: `pagination` is the query's page. */
export function usePagedTable<TData>({
  rows,
  total,
  columns,
  pagination,
  onPaginationChange,
  rowId,
}: PagedTableOptions<TData>): Table<TData> {
  return useReactTable({
    data: rows ?? NO_ROWS,
    columns,
    rowCount: total ?? 0,
    state: { pagination },
    onPaginationChange: (updater) =>
      onPaginationChange(typeof updater === 'function' ? updater(pagination) : updater),
    manualPagination: true,
    getRowId: (row) => String(rowId(row)),
    getCoreRowModel: getCoreRowModel(),
  });
}

export interface DataTableProps<TData> {
  table: Table<TData>;
  loading?: boolean;
  emptyText?: ReactNode;
  /** data-testid for each body row. */
  rowTestId?: (row: TData) => string;
  /** Shows a pager below the table, driven by the table's pagination state (server or client side). */
  pagination?: boolean;
  pageSizeOptions?: number[];
  'aria-label'?: string;
}

/** Renders a TanStack table instance in the antd visual language; the one table of the console. */
export function DataTable<TData>({
  table,
  loading = false,
  emptyText = '暂无数据',
  rowTestId,
  pagination = false,
  pageSizeOptions = [10, 20, 50, 100],
  'aria-label': ariaLabel,
}: DataTableProps<TData>) {
  const { token } = theme.useToken();
  const style = {
    '--dt-border': token.colorBorderSecondary,
    '--dt-radius': `${token.borderRadiusLG}px`,
    '--dt-bg': token.colorBgContainer,
    '--dt-header-bg': token.colorFillAlter,
    '--dt-header-text': token.colorTextHeading,
    '--dt-hover-bg': token.controlItemBgHover,
    '--dt-text': token.colorText,
    '--dt-font-size': `${token.fontSize}px`,
  } as CSSProperties;
  const rows = table.getRowModel().rows;
  const columnCount = table.getVisibleLeafColumns().length;
  const { pageIndex, pageSize } = table.getState().pagination;

  return (
    <Spin spinning={loading}>
      <div className="data-table" style={style}>
        <table aria-label={ariaLabel}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta;
                  return (
                    <th
                      key={header.id}
                      colSpan={header.colSpan}
                      scope="col"
                      className={stickyClass(meta?.sticky)}
                      style={{ textAlign: meta?.align, width: meta?.width }}
                    >
                      {header.isPlaceholder
                        ? null
                        : flexRender(header.column.columnDef.header, header.getContext())}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columnCount}>
                  <div className="data-table-empty">
                    <Empty
                      image={Empty.PRESENTED_IMAGE_SIMPLE}
                      description={loading ? '加载中' : emptyText}
                    />
                  </div>
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id} data-testid={rowTestId?.(row.original)}>
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={stickyClass(cell.column.columnDef.meta?.sticky)}
                      style={{ textAlign: cell.column.columnDef.meta?.align }}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pagination ? (
        <div className="data-table-pagination">
          <Pagination
            current={pageIndex + 1}
            pageSize={pageSize}
            total={table.getRowCount()}
            showSizeChanger
            pageSizeOptions={pageSizeOptions}
            showTotal={(total) => `共 ${total} 条`}
            onChange={(page, size) =>
              table.setPagination({ pageIndex: size === pageSize ? page - 1 : 0, pageSize: size })
            }
          />
        </div>
      ) : null}
    </Spin>
  );
}
