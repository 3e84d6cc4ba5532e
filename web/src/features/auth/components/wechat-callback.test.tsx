import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { getSession, setSession } from '../../../lib/auth';
import { fakeServer, renderRoutes } from '../../../test/render';

// The first render of a lazily loaded route compiles it: warm the modules up outside the tests.
beforeAll(async () => {
  await Promise.all([
    import('../../../app/routes/wechat-callback'),
    import('../../../app/routes/wechat-sandbox'),
    import('../../../app/routes/login'),
    import('../../../app/routes/containers'),
    import('../../../app/routes/profile'),
    import('../../../app/layouts/console-shell'),
  ]);
}, 60_000);

const started = (purpose: 'login' | 'bind', state = 'st-1') =>
  sessionStorage.setItem('wechatOAuth', JSON.stringify({ purpose, state }));

describe('/wechat-callback', () => {
  it('signs in and returns to the page stored before the QR scan', async () => {
    started('login');
    sessionStorage.setItem('redirectAfterLogin', '/user/containers');
    const { requests } = fakeServer({
      'POST /api/auth/wechat/callback': () => ({
        body: {
          purpose: 'login',
          created: true,
          token: 'wx-tok',
          username: 'wx_abc',
          nickname: '小明',
          is_admin: false,
        },
      }),
      'GET /api/containers': () => ({ body: { items: [], total: 0 } }),
    });
    const { router } = renderRoutes(routes, '/wechat-callback?code=c1&state=st-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
    expect(requests.filter((r) => r.path === '/api/auth/wechat/callback').map((r) => r.body)).toEqual([
      { code: 'c1', state: 'st-1' },
    ]);
    expect(getSession()).toEqual({
      token: 'wx-tok',
      user: { username: 'wx_abc', nickname: '小明', isAdmin: false },
    });
    expect(await screen.findByText('登录成功')).toBeTruthy();
  });

  it('a code WeChat already used sends the user to /login?error=code_used with the spec’s message', async () => {
    started('login');
    fakeServer({
      'POST /api/auth/wechat/callback': () => ({
        status: 400,
        body: { detail: '微信授权已过期，请重新扫码登录', code: 'WECHAT_CODE_USED' },
      }),
    });
    const { router } = renderRoutes(routes, '/wechat-callback?code=c1&state=st-1');
    await waitFor(() => expect(router.state.location.search).toBe('?error=code_used'));
    expect(await screen.findByText('微信授权已过期，请重新扫码登录')).toBeTruthy();
  });

  it('any other failure shows 微信登录失败', async () => {
    started('login');
    fakeServer({
      'POST /api/auth/wechat/callback': () => ({
        status: 502,
        body: { detail: '微信登录失败', code: 'WECHAT_LOGIN_FAILED' },
      }),
    });
    const { router } = renderRoutes(routes, '/wechat-callback?code=c1&state=st-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect((await screen.findAllByText('微信登录失败')).length).toBeGreaterThan(0);
  });

  it('a WeChat redirect to /login?code&state is finished by the callback page', async () => {
    started('login');
    const { requests } = fakeServer({
      'POST /api/auth/wechat/callback': () => ({
        body: {
          purpose: 'login',
          created: false,
          token: 't',
          username: 'wx_1',
          nickname: null,
          is_admin: false,
        },
      }),
    });
    renderRoutes(routes, '/login?code=c9&state=st-1');
    await waitFor(() =>
      expect(requests.find((r) => r.path === '/api/auth/wechat/callback')?.body).toEqual({
        code: 'c9',
        state: 'st-1',
      }),
    );
  });

  it('a state this tab did not start is refused without asking the server', async () => {
    started('login', 'mine');
    const { requests } = fakeServer({});
    const { router } = renderRoutes(routes, '/wechat-callback?code=c1&state=someone-elses');
    await waitFor(() => expect(router.state.location.search).toBe('?error=wechat_failed'));
    expect(requests.filter((r) => r.path === '/api/auth/wechat/callback')).toHaveLength(0);
  });

  it('a binding started from the profile returns to the profile with 微信绑定成功', async () => {
    setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
    started('bind');
    const { requests } = fakeServer({
      'POST /api/auth/wechat/callback': () => ({ body: { purpose: 'bind', wechat_nickname: '小爱' } }),
      'GET /api/user/info': () => ({ status: 500, body: {} }),
      'GET /api/api-keys/': () => ({ body: { items: [], total: 0 } }),
    });
    const { router } = renderRoutes(routes, '/wechat-callback?code=c2&state=st-1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    expect(requests.find((r) => r.path === '/api/auth/wechat/callback')?.headers.Authorization).toBe(
      'Bearer tok',
    );
    expect(await screen.findByText('微信绑定成功')).toBeTruthy();
  });
});

describe('/wechat-sandbox', () => {
  it('authorises the named identity and goes to the callback with the one-time code', async () => {
    started('login', 'st-9');
    const { requests } = fakeServer({
      'POST /api/auth/wechat/sandbox/authorize': () => ({ body: { code: 'sbx_1' } }),
      'POST /api/auth/wechat/callback': () => ({ status: 502, body: { detail: '微信登录失败' } }),
    });
    const { router } = renderRoutes(
      routes,
      `/wechat-sandbox?redirect_uri=${encodeURIComponent('http://evil.example/steal')}&state=st-9`,
    );
    const nickname = (await screen.findByLabelText('微信昵称')) as HTMLInputElement;
    expect(nickname.value).toMatch(/^测试用户\d{4}$/);
    fireEvent.change(nickname, { target: { value: '沙箱小王' } });
    fireEvent.click(screen.getByText('确认授权'));
    await waitFor(() =>
      expect(requests.find((r) => r.path === '/api/auth/wechat/callback')?.body).toEqual({
        code: 'sbx_1',
        state: 'st-9',
      }),
    );
    expect(requests.find((r) => r.path === '/api/auth/wechat/sandbox/authorize')?.body).toEqual({
      nickname: '沙箱小王',
      state: 'st-9',
    });
    // A foreign redirect_uri is ignored: the console's own callback handled the code.
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
