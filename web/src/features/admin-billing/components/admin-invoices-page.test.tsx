import type { Invoice } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
const issued: Invoice = { ...pending, id: 2, invoice_no: 'INV202611210002', status: 'issued' };
const lastQuery = (requests: RecordedRequest[]) =>
  requests
    .filter((r) => r.method === 'GET' && r.path === '/api/admin/invoices')
    .at(-1)
    ?.search.toString();

beforeEach(() => {
  setSession('t', { username: 'root', nickname: '', isAdmin: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(URL, 'createObjectURL');
  Reflect.deleteProperty(URL, 'revokeObjectURL');
});

describe('admin invoices', { timeout: 60_000 }, () => {
  it('opens on the applications to issue, issues one after confirmation, and filters by status', async () => {
    let issuedNow = false;
    const { requests } = fakeServer({
      'GET /api/admin/invoices': () => ({
        body: { items: [issuedNow ? { ...pending, status: 'issued' } : pending], total: 1 },
      }),
      'POST /api/admin/invoices/1/issue': () => {
        issuedNow = true;
        return { body: { ...pending, status: 'issued' } };
      },
    });
    renderRoutes(routes, '/admin/invoices');
    const row = await screen.findByTestId('invoice-row-1');
    expect(within(row).getByText('alice')).toBeTruthy();
    expect(within(row).getByText('¥45.37')).toBeTruthy();
    expect(within(row).getByText('待开具')).toBeTruthy();
    expect(lastQuery(requests)).toBe('page=1&size=20&status=pending');

    fireEvent.click(getButton(row, '开具'));
    expect(await screen.findByText('确定为「上海测试科技有限公司」开具 ¥45.37 的发票吗？')).toBeTruthy();
    fireEvent.click(getButton(document.querySelector('.ant-popover') as HTMLElement, '确定'));
    expect(await screen.findByText('发票已开具')).toBeTruthy();
    await waitFor(() => expect(within(screen.getByTestId('invoice-row-1')).getByText('已开具')).toBeTruthy());
    expect(getButton(screen.getByTestId('invoice-row-1'), '下载')).toBeTruthy();

    fireEvent.mouseDown(
      selectInput(document.body, '发票状态').closest('.ant-select-selector') as HTMLElement,
    );
    fireEvent.click(await screen.findByTitle('全部'));
    await waitFor(() => expect(lastQuery(requests)).toBe('page=1&size=20'));
  });

  it('downloads an issued invoice with the admin token, and reports a refused download', async () => {
    let refuse = false;
    const { requests } = fakeServer({
      'GET /api/admin/invoices': () => ({ body: { items: [issued], total: 1 } }),
      'GET /api/admin/invoices/2/download': () =>
        refuse ? { status: 404, body: { detail: '发票不存在' } } : { body: '<html>发票</html>' },
    });
    const saved: string[] = [];
    // jsdom has no object URLs: these two live for this test only (see afterEach).
    URL.createObjectURL = () => 'blob:invoice';
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderRoutes(routes, '/admin/invoices');
    fireEvent.click(getButton(await screen.findByTestId('invoice-row-2'), '下载'));
    await waitFor(() => expect(saved).toEqual(['invoice-INV202611210002.html']));
    const download = requests.find((r) => r.path === '/api/admin/invoices/2/download');
    expect(download?.headers.Authorization).toBe('Bearer t');

    refuse = true;
    fireEvent.click(getButton(screen.getByTestId('invoice-row-2'), '下载'));
    expect(await screen.findByText('发票不存在')).toBeTruthy();
  });
});
