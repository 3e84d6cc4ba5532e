import type { Invoice } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, type RecordedRequest, renderRoutes, selectInput } from '../../../test/render';

const pending: Invoice = {
  id: 1,
  invoice_no: 'INV202611210001',
  title: '上海测试科技有限公司',
  tax_no: '91310000MA1K000000',
  amount: 45.37,
  status: 'pending',
  create_time: '2026-11-21T08:00:00.000Z',
  issued_at: null,
  order_id: 5,
  order_no: 'O202611210005',
  username: 'alice',
};
const lastQuery = (requests: RecordedRequest[]) =>
  requests
    .filter((r) => r.method === 'GET' && r.path === '/api/invoices')
    .at(-1)
    ?.search.toString();

beforeEach(() => {
  setSession('t', { username: 'alice', nickname: '', isAdmin: false });
});

describe('my invoices', { timeout: 60_000 }, () => {
  it('lists 10 a page, a status goes back to page 1, and a pending one can be cancelled', async () => {
    const { requests } = fakeServer({
      'GET /api/invoices': () => ({ body: { items: [pending], total: 25 } }),
      'PUT /api/invoices/1': () => ({ body: { ...pending, status: 'cancelled' } }),
    });
    renderRoutes(routes, '/invoices');
    const row = await screen.findByTestId('invoice-row-1');
    expect(within(row).getByText('¥45.37')).toBeTruthy();
    expect(within(row).getByText('待开具')).toBeTruthy();
    expect(within(row).queryByText('alice')).toBeNull();
    expect(getButton(document.body, '申请发票')).toBeTruthy();
    expect(lastQuery(requests)).toBe('page=1&page_size=10');

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lastQuery(requests)).toBe('page=3&page_size=10'));
    fireEvent.mouseDown(
      selectInput(document.body, '发票状态').closest('.ant-select-selector') as HTMLElement,
    );
    fireEvent.click(await screen.findByTitle('已开具'));
    await waitFor(() => expect(lastQuery(requests)).toBe('page=1&page_size=10&status=issued'));

    fireEvent.click(getButton(screen.getByTestId('invoice-row-1'), '取消'));
    expect(await screen.findByText('确定要取消这张发票的申请吗？')).toBeTruthy();
    fireEvent.click(getButton(document.querySelector('.ant-popover') as HTMLElement, '确定'));
    expect(await screen.findByText('发票已取消')).toBeTruthy();
    expect(requests.find((r) => r.method === 'PUT' && r.path === '/api/invoices/1')?.body).toEqual({
      status: 'cancelled',
    });
  });
});
