import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSession, setSession } from '../../lib/auth';
import { fakeServer, renderRoutes } from '../../test/render';
import { routes } from '../router';
import { userMenuLinks } from './user-menu';

const keys = (isAdmin: boolean) => userMenuLinks(isAdmin).map((link) => link.to);

describe('user menu', () => {
  it('lists the user-centre pages, and 管理后台 only for admins', () => {
    expect(keys(false)).toEqual([
      '/user/profile',
      '/user/containers',
      '/user/storage',
      '/user/images',
      '/user/orders',
      '/user/balance',
      '/user/billing-records',
      '/user/mcp',
    ]);
    expect(keys(true)).toContain('/admin');
  });

  it('greets by username when there is no nickname, and 退出登录 ends the session', async () => {
    const { requests } = fakeServer({ 'POST /api/auth/logout': () => ({ body: { ok: true } }) });
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    localStorage.setItem('apiKey', 'k');
    const { router } = renderRoutes(routes, '/');
    fireEvent.click(await screen.findByText('你好，alice'));
    fireEvent.click(await screen.findByText('退出登录'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(requests.some((r) => r.method === 'POST' && r.path === '/api/auth/logout')).toBe(true);
    expect(requests.find((r) => r.path === '/api/auth/logout')?.headers.Authorization).toBe('Bearer tok');
    expect(getSession()).toEqual({ token: null, user: null });
    expect(localStorage.getItem('apiKey')).toBeNull();
  });
});
