import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aNode } from '../features/nodes/test-fixtures';
import { setSession } from '../lib/auth';
import { fakeServer, renderRoutes, waitForButton } from '../test/render';
import { routes } from './router';

describe('route guard', () => {
  it('when signed out, /market sends the visitor to /login with the return path', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, '/market');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fmarket');
    expect(await waitForButton(document.body, '没有账号？立即注册')).toBeTruthy();
  });

  it('a signed-in user who is not an admin is refused the admin screens', async () => {
    fakeServer({});
    setSession('t', { username: 'alice', nickname: '', isAdmin: false });
    renderRoutes(routes, '/admin/nodes');
    expect(await screen.findByText('无权访问')).toBeTruthy();
  });

  it('an admin opening /admin/nodes sees the node list', async () => {
    fakeServer({
      'GET /api/admin/nodes': () => ({
        body: {
          items: [
            aNode({
              id: 1,
              name: 'gpu-a',
              address: '10.0.0.1:50051',
              region: '华东一区',
              status: 'online',
              last_heartbeat_at: '2025-01-01T00:00:00Z',
              docker_available: false,
              docker_error: 'Cannot connect to the Docker daemon',
              simulated: true,
              gpu_model: 'RTX 4090',
              gpu_total: 8,
            }),
          ],
          total: 1,
        },
      }),
    });
    setSession('t', { username: 'root', nickname: '管理员', isAdmin: true });
    renderRoutes(routes, '/admin/nodes');
    const row = await screen.findByTestId('node-row-1');
    expect(row.textContent).toContain('在线');
    expect(row.textContent).toContain('RTX 4090 × 8');
    expect(row.textContent).toContain('模拟 GPU');
    expect(row.textContent).toContain('Cannot connect to the Docker daemon');
    expect(screen.getByText('你好，管理员')).toBeTruthy();
  });

  it('the header offers 登录 when signed out, and the home hero leads to the market', async () => {
    fakeServer({});
    renderRoutes(routes, '/');
    const hero = await screen.findByTestId('hero-market-link');
    expect(hero.getAttribute('href')).toBe('/market');
    expect(screen.getByTestId('login-button').getAttribute('href')).toBe('/login');
    expect(screen.getByTestId('nav-instances').textContent).toContain('轻量实例');
  });

  it('/containers is the user container list, behind the guard', async () => {
    fakeServer({ 'GET /api/containers': () => ({ body: { items: [], total: 0 } }) });
    const signedOut = renderRoutes(routes, '/containers');
    await waitFor(() => expect(signedOut.router.state.location.pathname).toBe('/login'));
    expect(signedOut.router.state.location.search).toBe('?redirect=%2Fcontainers');
    signedOut.unmount();

    setSession('t', { username: 'alice', nickname: '', isAdmin: false });
    const { router } = renderRoutes(routes, '/containers');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
  });

  it('/account goes to the profile, which needs a session', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, '/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fuser%2Fprofile');
  });

  it('signed out, /admin asks for a login with the way back', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, '/admin/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?redirect=%2Fadmin%2Fusers');
  });

  it('public pages open without a session; unknown paths show the 404 page', async () => {
    fakeServer({});
    const about = renderRoutes(routes, '/agreement');
    expect(await screen.findByRole('heading', { level: 1, name: 'GPU 云平台服务协议' })).toBeTruthy();
    about.unmount();
    renderRoutes(routes, '/no-such-page');
    expect(await screen.findByText('页面不存在')).toBeTruthy();
  });
});
