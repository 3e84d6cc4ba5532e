import type { AdminUser } from '@gpucloud/control-plane/api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';

// The first render of a lazily loaded route compiles it: warm the modules up outside the tests.
beforeAll(async () => {
  await Promise.all([
    import('../../../app/routes/admin/users'),
    import('../../../app/layouts/console-shell'),
  ]);
}, 60_000);

const user = (id: number, over: Partial<AdminUser> = {}): AdminUser => ({
  id,
  username: `user${id}`,
  nickname: null,
  email: `user${id}@example.com`,
  phone: null,
  ssh_key: null,
  is_admin: false,
  disabled: false,
  is_phone_verified: false,
  is_email_verified: true,
  is_wechat_bound: false,
  wechat_nickname: null,
  balance: 12.5,
  created_at: '2026-01-01T00:00:00Z',
  last_login_at: null,
  ...over,
});

beforeEach(() => {
  setSession('tok', { username: 'admin', nickname: '', isAdmin: true });
});

async function popover(): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLElement>('.ant-popover:not(.ant-popover-hidden)');
    expect(found).not.toBeNull();
  });
  return found as unknown as HTMLElement;
}

describe('admin users', () => {
  it('lists users with server paging and searches by keyword', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/users': (r) => ({
        body:
          r.search.get('keyword') === 'zoe'
            ? { items: [user(2, { username: 'zoe' })], total: 1 }
            : { items: [user(1), user(2)], total: 42 },
      }),
    });
    renderRoutes(routes, '/admin/users');
    await screen.findByTestId('user-row-1');
    expect(screen.getByText('共 42 条')).toBeTruthy();
    const first = requests.find((r) => r.path === '/api/admin/users');
    expect(first?.search.get('page')).toBe('1');
    expect(first?.search.get('size')).toBe('20');
    const search = screen.getByLabelText('搜索用户');
    fireEvent.change(search, { target: { value: 'zoe' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.queryByTestId('user-row-1')).toBeNull());
    expect(within(screen.getByTestId('user-row-2')).getByText('zoe')).toBeTruthy();
  });

  it('disables a user after confirmation; the own row offers no disable', async () => {
    let disabled = false;
    const { requests } = fakeServer({
      'GET /api/admin/users': () => ({
        body: { items: [user(1, { username: 'admin', is_admin: true }), user(2, { disabled })], total: 2 },
      }),
      'POST /api/admin/users/2/disable': () => {
        disabled = true;
        return { body: user(2, { disabled: true }) };
      },
    });
    renderRoutes(routes, '/admin/users');
    const own = await screen.findByTestId('user-row-1');
    expect(within(own).queryByText('禁用')).toBeNull();
    fireEvent.click(screen.getByTestId('user-disable-2'));
    fireEvent.click(getButton(await popover(), '确定'));
    expect(await screen.findByText('已禁用')).toBeTruthy();
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/admin/users/2/disable')).toBe(true);
    await waitFor(() => expect(screen.getByTestId('user-enable-2')).toBeTruthy());
  }, 60_000);

  it('shows a user’s balance, containers and orders in the drawer', async () => {
    fakeServer({
      'GET /api/admin/users': () => ({ body: { items: [user(3)], total: 1 } }),
      'GET /api/admin/users/3': () => ({
        body: {
          ...user(3),
          containers: [
            {
              container_id: 'c-abc123',
              name: 'train',
              status: 'running',
              gpu_type: 'RTX 4090',
              gpu_count: 2,
              node_name: 'local',
              billing_type: 'hourly',
              create_time: '2026-01-02T00:00:00Z',
            },
          ],
          orders: [],
        },
      }),
    });
    renderRoutes(routes, '/admin/users');
    fireEvent.click(await screen.findByTestId('user-view-3'));
    expect(await screen.findByText('容器（1）')).toBeTruthy();
    expect(screen.getByText('c-abc123')).toBeTruthy();
    expect(screen.getByText('暂无订单（订单功能即将上线）')).toBeTruthy();
    expect(screen.getAllByText('¥12.50').length).toBeGreaterThan(0);
  });
});
