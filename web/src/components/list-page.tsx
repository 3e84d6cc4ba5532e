import { ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ColumnDef, PaginationState } from '@tanstack/react-table';
import { Button, Card, Form, Input, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import type { ListResponse } from '../lib/list';
import { DataTable, usePagedTable } from './data-table';
import { LoadError } from './load-error';
import { PageHeader } from './page-header';

/** The page of the list to ask the server for: `page` is 1-based, `search` trimmed ('' for none). */
export interface ListQuery {
  page: number;
  size: number;
  search: string;
}

export interface ListSearchOptions {
  placeholder: string;
  'aria-label'?: string;
  /** Width of the box in pixels (240 unless told). */
  width?: number;
  id?: string;
  /** The button next to the box (a magnifier icon unless told), e.g. '搜索'. */
  enterButton?: ReactNode;
  /** The label before the box, where the filters sit in a card (`filtersInCard`). */
  label?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: a column of any value type, as TanStack's ColumnDef
type Columns<TData> = ColumnDef<TData, any>[];

/** What the page's filter controls stand at, given to `useList`: required where the hook takes it. */
type FilterProp<TFilter> = undefined extends TFilter
  ? { filter?: TFilter }
  : {
      /** When it changes (compared as JSON) the list goes back to page 1. */
      filter: TFilter;
    };

export type ListPageProps<TData, TList extends ListResponse<TData>, TFilter> = ListPageOptions<
  TData,
  TList,
  TFilter
> &
  FilterProp<TFilter>;

interface ListPageOptions<TData, TList extends ListResponse<TData>, TFilter> {
  title: ReactNode;
  /**
   * The list's query hook (a module-level function: it is called as a hook), given the page and
   * search term the screen shows and the page's `filter`.
   */
  useList: (query: ListQuery, filter: TFilter) => UseQueryResult<TList>;
  /** The columns, or a function of the rows shown (a column only some rows need). */
  columns: Columns<TData> | ((rows: TData[]) => Columns<TData>);
  rowId: (row: TData) => string | number;
  rowTestId?: (row: TData) => string;
  'aria-label': string;
  emptyText: ReactNode;
  /** The banner's title when the list cannot be loaded (the server's reason is its text). */
  errorTitle: string;
  defaultPageSize?: number;
  pageSizeOptions?: number[];
  /** A search box: Enter or its button asks for the term from page 1; an emptied box shows all. */
  search?: ListSearchOptions;
  /** The page's filter controls, after the search box. */
  filters?: ReactNode;
  /** The search and filters in a card of their own (labelled fields) rather than in the title bar. */
  filtersInCard?: boolean;
  /** A 刷新 button that asks the server again. */
  refresh?: boolean;
  /** Buttons at the end of the title bar (发放卡券, 申请发票 …). */
  actions?: ReactNode;
  /** A note above the table drawn from the server's answer (beyond its items and total). */
  notice?: (data: TList) => ReactNode;
  /** Dialogs and drawers of the page. */
  children?: ReactNode;
}

/**
 * A console list the server pages: title bar (search, filters, 刷新, actions), the error banner, the
 * table with its pager, and the page / page-size / search state behind them. The pages give their
 * query hook, columns and filters; every list pages, searches and fails the same way.
 */
export function ListPage<
  TData,
  TList extends ListResponse<TData> = ListResponse<TData>,
  TFilter = undefined,
>({
  title,
  useList,
  columns,
  rowId,
  rowTestId,
  'aria-label': ariaLabel,
  emptyText,
  errorTitle,
  defaultPageSize = 20,
  pageSizeOptions,
  search: searchOptions,
  filters,
  filtersInCard = false,
  refresh = false,
  actions,
  notice,
  children,
  ...rest
}: ListPageProps<TData, TList, TFilter>) {
  const filter = rest.filter as TFilter;
  const [pagination, setPagination] = useState<PaginationState>({
    pageIndex: 0,
    pageSize: defaultPageSize,
  });
  const [searchInput, setSearchInput] = useState('');
  const [search, setSearch] = useState('');

  // A filter that changed goes back to page 1 in this very render (set during render, so no
  // request is sent for the old page with the new filter).
  const filterKey = JSON.stringify(filter ?? null);
  const [appliedFilterKey, setAppliedFilterKey] = useState(filterKey);
  const filterChanged = filterKey !== appliedFilterKey;
  if (filterChanged) {
    setAppliedFilterKey(filterKey);
    setPagination((current) => ({ ...current, pageIndex: 0 }));
  }
  const pageIndex = filterChanged ? 0 : pagination.pageIndex;

  const query = useList({ page: pageIndex + 1, size: pagination.pageSize, search }, filter);
  const rows = query.data?.items;
  const table = usePagedTable({
    rows,
    total: query.data?.total,
    columns: typeof columns === 'function' ? columns(rows ?? []) : columns,
    pagination: { pageIndex, pageSize: pagination.pageSize },
    onPaginationChange: setPagination,
    rowId,
  });

  const submitSearch = (value: string) => {
    setSearch(value.trim());
    setPagination((current) => ({ ...current, pageIndex: 0 }));
  };
  const searchBox = searchOptions ? (
    <Input.Search
      id={searchOptions.id}
      allowClear
      enterButton={searchOptions.enterButton}
      placeholder={searchOptions.placeholder}
      aria-label={searchOptions['aria-label']}
      style={{ width: searchOptions.width ?? 240 }}
      value={searchInput}
      onChange={(event) => {
        setSearchInput(event.target.value);
        if (event.target.value === '' && search !== '') submitSearch('');
      }}
      onSearch={submitSearch}
    />
  ) : null;
  const refreshButton = refresh ? (
    <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching}>
      刷新
    </Button>
  ) : null;
  const inBar = filtersInCard ? [refreshButton, actions] : [searchBox, filters, refreshButton, actions];

  return (
    <div>
      <PageHeader
        title={title}
        extra={
          inBar.some((item) => item) ? (
            <Space wrap>
              {filtersInCard ? null : searchBox}
              {filtersInCard ? null : filters}
              {refreshButton}
              {actions}
            </Space>
          ) : undefined
        }
      />
      {filtersInCard ? (
        <Card style={{ marginBottom: 16 }}>
          <Form layout="inline" style={{ rowGap: 12 }}>
            {searchBox ? (
              <Form.Item label={searchOptions?.label} htmlFor={searchOptions?.id}>
                {searchBox}
              </Form.Item>
            ) : null}
            {filters}
          </Form>
        </Card>
      ) : null}
      {query.data && notice ? notice(query.data) : null}
      <LoadError title={errorTitle} error={query.isError ? query.error : null} />
      <DataTable
        table={table}
        // The first page, and a page or filter not loaded yet (the previous rows stay meanwhile).
        loading={query.isPending || query.isPlaceholderData}
        pagination
        pageSizeOptions={pageSizeOptions}
        aria-label={ariaLabel}
        emptyText={emptyText}
        rowTestId={rowTestId}
      />
      {children}
    </div>
  );
}
