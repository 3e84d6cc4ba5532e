import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { getSession } from '../../../lib/auth';
import { siteKeys } from '../../../lib/query-keys';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';
import { externalNavigation } from '../wechat-flow';

// The first render of a lazily loaded route compiles it: warm the modules up outside the tests.
beforeAll(async () => {
  await Promise.all([
    import('../../../app/routes/login'),
    import('../../../app/routes/register'),
    import('../../../app/routes/market'),
    import('../../../app/routes/containers'),
    import('../../../app/layouts/console-shell'),
    import('./register-panel'),
    import('../../../lib/antd-message'),
  ]);
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('login screen', () => {
  it('with empty fields, asks for username and password and sends nothing', async () => {
    const { requests } = fakeServer({});
    renderRoutes(routes, '/login');
    await screen.findByLabelText('用户名');
    // The header has a 登录 button too; getButton takes the last one, the form's.
    fireEvent.click(getButton(document.body, '登录'));
    expect(await screen.findByText('请输入用户名和密码')).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/auth/login')).toHaveLength(0);
  });

  it('signs in, stores the session with isAdmin and follows ?redirect=', async () => {
    const { requests } = fakeServer({
      'POST /api/auth/login': () => ({
        body: { token: 'tok', username: 'root', nickname: null, is_admin: true },
      }),
      'GET /api/containers': () => ({ body: { items: [], total: 0 } }),
    });
    const { router } = renderRoutes(routes, '/login?redirect=%2Fuser%2Fcontainers');
    await screen.findByLabelText('用户名');
    type('用户名', 'root');
    type('密码', 'secret1');
    fireEvent.click(getButton(document.body, '登录'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/containers'));
    expect(requests.find((r) => r.path === '/api/auth/login')?.body).toEqual({
      username: 'root',
      password: 'secret1',
    });
    expect(getSession()).toEqual({ token: 'tok', user: { username: 'root', nickname: '', isAdmin: true } });
    expect(await screen.findByText('登录成功')).toBeTruthy();
  });

  it('a refused login shows 操作失败 with the server detail', async () => {
    fakeServer({ 'POST /api/auth/login': () => ({ status: 401, body: { detail: '用户名或密码错误' } }) });
    const { router } = renderRoutes(routes, '/login');
    await screen.findByLabelText('用户名');
    type('用户名', 'root');
    type('密码', 'wrong-pw');
    fireEvent.click(getButton(document.body, '登录'));
    expect(await screen.findByText('操作失败：用户名或密码错误')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('error=code_used explains that the WeChat authorisation expired', async () => {
    fakeServer({});
    renderRoutes(routes, '/login?error=code_used');
    expect(await screen.findByText('微信授权已过期，请重新扫码登录')).toBeTruthy();
  });
});

describe('register mode', () => {
  it('toggling modes clears the fields', async () => {
    fakeServer({});
    renderRoutes(routes, '/login');
    await screen.findByLabelText('用户名');
    type('用户名', 'someone');
    fireEvent.click(getButton(document.body, '没有账号？立即注册'));
    // The register form (antd) loads when the mode opens.
    expect(await screen.findByLabelText('邮箱')).toBeTruthy();
    expect((screen.getByLabelText('用户名') as HTMLInputElement).value).toBe('');
    type('用户名', 'other');
    fireEvent.click(getButton(document.body, '已有账号？去登录'));
    expect((screen.getByLabelText('用户名') as HTMLInputElement).value).toBe('');
  });

  it('shows each rule of the spec', async () => {
    const { requests } = fakeServer({});
    renderRoutes(routes, '/register');
    await screen.findByLabelText('邮箱');
    type('用户名', 'ab');
    type('邮箱', 'not-an-email');
    type('密码', '123');
    type('确认密码', '1234');
    fireEvent.click(getButton(document.body, '注册'));
    expect(await screen.findByText('用户名至少需要3个字符')).toBeTruthy();
    expect(screen.getByText('请输入正确的邮箱地址')).toBeTruthy();
    expect(screen.getByText('密码至少需要6个字符')).toBeTruthy();
    expect(screen.getByText('两次输入的密码不一致')).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/auth/register')).toHaveLength(0);
  });

  it('registers with the e-mail code, says 注册成功！ and signs in with the returned token', async () => {
    const { requests } = fakeServer({
      'POST /api/auth/send-email-verify-code': () => ({ body: { ok: true, expires_in: 600 } }),
      'POST /api/auth/register': () => ({
        status: 201,
        body: { token: 'new-tok', username: 'newbie', nickname: null, is_admin: false },
      }),
      'GET /api/cloud-products': () => ({ body: { items: [], total: 0 } }),
      'GET /api/cloud-products/regions': () => ({ body: [] }),
      'GET /api/cloud-products/gpu-types': () => ({ body: [] }),
    });
    const { router } = renderRoutes(routes, '/register');
    await screen.findByLabelText('邮箱');
    type('用户名', 'newbie');
    type('邮箱', 'newbie@example.com');
    fireEvent.click(screen.getByTestId('send-email-code'));
    expect(await screen.findByText('验证码已发送')).toBeTruthy();
    type('验证码', '123456');
    type('密码', 'secret1');
    type('确认密码', 'secret1');
    fireEvent.click(getButton(document.body, '注册'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market'));
    expect(requests.find((r) => r.path === '/api/auth/send-email-verify-code')?.body).toEqual({
      email: 'newbie@example.com',
    });
    expect(requests.find((r) => r.path === '/api/auth/register')?.body).toEqual({
      username: 'newbie',
      email: 'newbie@example.com',
      email_verify_code: '123456',
      password: 'secret1',
    });
    expect(getSession().token).toBe('new-tok');
    expect(await screen.findByText('注册成功！')).toBeTruthy();
  });

  it('the send-code button waits for a valid e-mail, then counts down 600 s', async () => {
    fakeServer({ 'POST /api/auth/send-email-verify-code': () => ({ body: { ok: true, expires_in: 600 } }) });
    renderRoutes(routes, '/register');
    await screen.findByLabelText('邮箱');
    const button = () => screen.getByTestId('send-email-code') as HTMLButtonElement;
    expect(button().disabled).toBe(true);
    type('邮箱', 'not-an-email');
    expect(button().disabled).toBe(true);
    type('邮箱', 'ok@example.com');
    await waitFor(() => expect(button().disabled).toBe(false));
    fireEvent.click(button());
    await waitFor(() => expect(button().textContent).toBe('600秒后重新发送'));
    expect(button().disabled).toBe(true);
  });

  it('a refused code request shows 发送验证码失败 with the server detail and starts no countdown', async () => {
    fakeServer({
      'POST /api/auth/send-email-verify-code': () => ({
        status: 429,
        body: { detail: '验证码发送过于频繁，请42秒后再试', code: 'CODE_RESEND_TOO_SOON' },
      }),
    });
    renderRoutes(routes, '/register');
    await screen.findByLabelText('邮箱');
    type('邮箱', 'ok@example.com');
    await waitFor(() =>
      expect((screen.getByTestId('send-email-code') as HTMLButtonElement).disabled).toBe(false),
    );
    fireEvent.click(screen.getByTestId('send-email-code'));
    expect(await screen.findByText('发送验证码失败：验证码发送过于频繁，请42秒后再试')).toBeTruthy();
    expect(screen.getByTestId('send-email-code').textContent).toBe('发送验证码');
  });

  it('without a code the form says 请输入验证码 and sends nothing', async () => {
    const { requests } = fakeServer({});
    renderRoutes(routes, '/register');
    await screen.findByLabelText('邮箱');
    type('用户名', 'newbie');
    type('邮箱', 'newbie@example.com');
    type('密码', 'secret1');
    type('确认密码', 'secret1');
    fireEvent.click(getButton(document.body, '注册'));
    expect(await screen.findByText('请输入验证码')).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/auth/register')).toHaveLength(0);
  });

  it('says the trial credit the server gives (GET /api/site), and no such line when it gives none', async () => {
    fakeServer({ 'GET /api/site': () => ({ body: { new_user_credit: 12.5 } }) });
    renderRoutes(routes, '/register');
    expect(await screen.findByText('新用户注册即送 12.5 元体验金')).toBeTruthy();
    cleanup();

    fakeServer({ 'GET /api/site': () => ({ body: { new_user_credit: 0 } }) });
    const { queryClient } = renderRoutes(routes, '/register');
    await screen.findByLabelText('邮箱');
    await waitFor(() => expect(queryClient.getQueryState(siteKeys.info())?.status).toBe('success'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText(/体验金/)).toBeNull();
  });
});

describe('WeChat QR login', () => {
  it('goes to the authorize URL, keeping the state and the ?redirect= for the callback', async () => {
    const go = vi.spyOn(externalNavigation, 'go').mockImplementation(() => {});
    fakeServer({
      'GET /api/auth/wechat/login': () => ({
        body: {
          authorize_url: 'https://open.weixin.qq.com/connect/qrconnect?state=s1',
          state: 's1',
          sandbox: false,
        },
      }),
    });
    renderRoutes(routes, '/login?redirect=%2Fuser%2Fprofile');
    fireEvent.click(await screen.findByTestId('wechat-login'));
    await waitFor(() =>
      expect(go).toHaveBeenCalledWith('https://open.weixin.qq.com/connect/qrconnect?state=s1'),
    );
    expect(JSON.parse(sessionStorage.getItem('wechatOAuth') ?? '{}')).toEqual({
      purpose: 'login',
      state: 's1',
    });
    expect(sessionStorage.getItem('redirectAfterLogin')).toBe('/user/profile');
  });

  it('when the URL cannot be fetched, says 获取微信登录二维码失败', async () => {
    fakeServer({ 'GET /api/auth/wechat/login': () => ({ status: 500, body: { detail: 'x' } }) });
    renderRoutes(routes, '/login');
    fireEvent.click(await screen.findByTestId('wechat-login'));
    expect(await screen.findByText('获取微信登录二维码失败')).toBeTruthy();
  });

  it('the login screen links to the forgot-password wizard', async () => {
    fakeServer({});
    const { router } = renderRoutes(routes, '/login');
    fireEvent.click(await screen.findByText('忘记密码？'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
  });
});
