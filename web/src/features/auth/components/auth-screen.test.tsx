import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { getSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
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
    expect((screen.getByLabelText('用户名') as HTMLInputElement).value).toBe('');
    expect(screen.getByLabelText('邮箱')).toBeTruthy();
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

  it('registers, says 注册成功！ and signs in with the returned token', async () => {
    const { requests } = fakeServer({
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
    type('密码', 'secret1');
    type('确认密码', 'secret1');
    fireEvent.click(getButton(document.body, '注册'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/market'));
    expect(requests.find((r) => r.path === '/api/auth/register')?.body).toEqual({
      username: 'newbie',
      email: 'newbie@example.com',
      password: 'secret1',
    });
    expect(getSession().token).toBe('new-tok');
    expect(await screen.findByText('注册成功！')).toBeTruthy();
  });
});
