import { keepPreviousData, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Segmented } from 'antd';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import type { ListResponse } from '../lib/list';
import { ListPage, type ListQuery } from './list-page';

interface Fruit {
  id: number;
  name: string;
  color: 'red' | 'green';
}

const column = createColumnHelper<Fruit>();
const columns = [column.accessor('name', { header: '名称' })];

/** 45 fruits, odd ones red; the "server" pages, searches by name and filters by color. */
const FRUITS: Fruit[] = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  name: `水果${i + 1}`,
  color: i % 2 === 0 ? 'red' : 'green',
}));

type Color = Fruit['color'] | 'all';
interface Request extends ListQuery {
  color: Color;
}

function serve(request: Request, all: Fruit[]): ListResponse<Fruit> {
  const matching = all.filter(
    (f) => f.name.includes(request.search) && (request.color === 'all' || f.color === request.color),
  );
  const first = (request.page - 1) * request.size;
  return { items: matching.slice(first, first + request.size), total: matching.length };
}

/** What the page's hook sends, and how the "server" answers (set by each test before rendering). */
let server: { requests: Request[]; fruits: Fruit[]; fail: boolean };

function useFruits(query: ListQuery, color: Color) {
  return useQuery({
    queryKey: ['fruits', query, color],
    queryFn: async () => {
      const request = { ...query, color };
      server.requests.push(request);
      if (server.fail) throw new ApiError({ status: 503, code: null, detail: '仓库暂时不可用' });
      return serve(request, server.fruits);
    },
    placeholderData: keepPreviousData,
  });
}

function FruitsPage() {
  const [color, setColor] = useState<Color>('all');
  return (
    <ListPage
      title="水果"
      useList={useFruits}
      columns={columns}
      rowId={(row) => row.id}
      rowTestId={(row) => `fruit-${row.id}`}
      aria-label="水果列表"
      emptyText="没有水果"
      errorTitle="获取水果失败"
      defaultPageSize={10}
      search={{ placeholder: '水果名称', 'aria-label': '搜索水果' }}
      filters={
        <Segmented<Color>
          value={color}
          onChange={setColor}
          options={[
            { value: 'all', label: '全部' },
            { value: 'red', label: '红色' },
            { value: 'green', label: '绿色' },
          ]}
        />
      }
      filter={color}
    />
  );
}

function renderPage(options: { fruits?: Fruit[]; fail?: boolean } = {}) {
  server = { requests: [], fruits: options.fruits ?? FRUITS, fail: options.fail ?? false };
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <FruitsPage />
    </QueryClientProvider>,
  );
  return server.requests;
}

const search = (value: string) => {
  const box = screen.getByLabelText('搜索水果');
  fireEvent.change(box, { target: { value } });
  fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
};

describe('ListPage', () => {
  it('asks for page 1 at the default size and shows its rows and the total', async () => {
    const requests = renderPage();
    expect(await screen.findByTestId('fruit-1')).toBeTruthy();
    expect(screen.getByTestId('fruit-10')).toBeTruthy();
    expect(screen.queryByTestId('fruit-11')).toBeNull();
    expect(screen.getByText('共 45 条')).toBeTruthy();
    expect(requests).toEqual([{ page: 1, size: 10, search: '', color: 'all' }]);
  });

  it('moves pages with the pager, and a new page size starts again from page 1', async () => {
    const requests = renderPage();
    await screen.findByTestId('fruit-1');
    fireEvent.click(screen.getByTitle('3'));
    expect(await screen.findByTestId('fruit-21')).toBeTruthy();
    expect(screen.queryByTestId('fruit-1')).toBeNull();
    expect(requests.at(-1)).toEqual({ page: 3, size: 10, search: '', color: 'all' });

    fireEvent.mouseDown(
      document.querySelector('.ant-pagination-options .ant-select-selector') as HTMLElement,
    );
    fireEvent.click(await screen.findByTitle('20 / page'));
    await waitFor(() => expect(requests.at(-1)).toEqual({ page: 1, size: 20, search: '', color: 'all' }));
    expect(await screen.findByTestId('fruit-20')).toBeTruthy();
  });

  it('a search sends the trimmed term from page 1; emptying the box shows everything again', async () => {
    const requests = renderPage();
    await screen.findByTestId('fruit-1');
    fireEvent.click(screen.getByTitle('3'));
    await screen.findByTestId('fruit-21');

    search(' 水果4 ');
    await waitFor(() =>
      expect(requests.at(-1)).toEqual({ page: 1, size: 10, search: '水果4', color: 'all' }),
    );
    expect(await screen.findByTestId('fruit-4')).toBeTruthy();
    expect(screen.getByTestId('fruit-45')).toBeTruthy();
    expect(screen.queryByTestId('fruit-21')).toBeNull();
    expect(screen.getByText('共 7 条')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('搜索水果'), { target: { value: '' } });
    await waitFor(() => expect(requests.at(-1)).toEqual({ page: 1, size: 10, search: '', color: 'all' }));
    expect(await screen.findByText('共 45 条')).toBeTruthy();
  });

  it('a filter goes back to page 1 without asking for the old page under the new filter', async () => {
    const requests = renderPage();
    await screen.findByTestId('fruit-1');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByTestId('fruit-11');

    fireEvent.click(screen.getByText('绿色', { selector: '.ant-segmented-item-label' }));
    await waitFor(() => expect(requests.at(-1)).toEqual({ page: 1, size: 10, search: '', color: 'green' }));
    expect(requests.filter((r) => r.color === 'green')).toHaveLength(1);
    expect(await screen.findByTestId('fruit-2')).toBeTruthy();
    expect(screen.getByText('共 22 条')).toBeTruthy();
  });

  it('shows the empty text when there is nothing, also for a search that finds nothing', async () => {
    renderPage({ fruits: [] });
    expect(await screen.findByText('没有水果')).toBeTruthy();
    expect(screen.getByText('共 0 条')).toBeTruthy();
    cleanup();

    renderPage();
    await screen.findByTestId('fruit-1');
    search('苹果');
    expect(await screen.findByText('没有水果')).toBeTruthy();
    expect(screen.queryByTestId('fruit-1')).toBeNull();
  });

  it('says what failed and why when the list cannot be loaded', async () => {
    renderPage({ fail: true });
    const banner = (await screen.findByText('获取水果失败')).closest('.ant-alert') as HTMLElement;
    expect(within(banner).getByText('仓库暂时不可用')).toBeTruthy();
  });
});
