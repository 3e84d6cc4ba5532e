import type { Profile } from '@gpucloud/control-plane/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { getSession, setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes } from '../../../test/render';

// The first render of a lazily loaded route compiles it: warm the modules up outside the tests.
beforeAll(async () => {
  await Promise.all([
    import('../../../app/routes/profile'),
    import('../../../app/routes/login'),
    import('../../../app/layouts/console-shell'),
  ]);
}, 60_000);

const base: Profile = {
  id: 7,
  username: 'alice',
  nickname: null,
  email: 'alice@example.com',
  phone: null,
  ssh_key: null,
  is_admin: false,
  is_phone_verified: false,
  is_email_verified: true,
  is_wechat_bound: false,
  wechat_nickname: null,
  balance: 20,
};

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const keys = { 'GET /api/api-keys/': () => ({ body: { items: [], total: 0 } }) };

describe('profile', () => {
  it('a 401 on load says 登录已过期，请重新登录, signs out and moves to /login after 1.5 s', async () => {
    const timeouts = vi.spyOn(window, 'setTimeout');
    fakeServer({
      ...keys,
      'GET /api/user/info': () => ({ status: 401, body: { detail: '未登录或登录已过期' } }),
    });
    const { router } = renderRoutes(routes, '/user/profile');
    expect((await screen.findAllByText('登录已过期，请重新登录')).length).toBeGreaterThan(0);
    expect(getSession().token).toBeNull();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(timeouts).toHaveBeenCalledWith(expect.any(Function), 1500);
  });

  it('a 403 on load is treated the same way', async () => {
    fakeServer({ ...keys, 'GET /api/user/info': () => ({ status: 403, body: { detail: '账号已被禁用' } }) });
    const { router } = renderRoutes(routes, '/user/profile');
    expect((await screen.findAllByText('登录已过期，请重新登录')).length).toBeGreaterThan(0);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 3000 });
  });

  it('verifies a phone: warns without a number, checks the pattern, sends, then verifies', async () => {
    let profile = base;
    const { requests } = fakeServer({
      ...keys,
      'GET /api/user/info': () => ({ body: profile }),
      'POST /api/user/send-phone-code': () => ({ body: { ok: true } }),
      'POST /api/user/verify-phone': () => {
        profile = { ...base, phone: '13812345678', is_phone_verified: true };
        return { body: profile };
      },
      'POST /api/user/reset-phone': () => {
        profile = { ...profile, is_phone_verified: false };
        return { body: profile };
      },
    });
    renderRoutes(routes, '/user/profile');
    const card = await screen.findByTestId('phone-verification');
    fireEvent.click(getButton(card, '发送验证码'));
    expect(await screen.findByText('请先输入手机号')).toBeTruthy();
    fireEvent.change(within(card).getByLabelText('手机号'), { target: { value: '12345678901' } });
    fireEvent.click(getButton(card, '发送验证码'));
    expect(await screen.findByText('请输入正确的手机号')).toBeTruthy();
    fireEvent.change(within(card).getByLabelText('手机号'), { target: { value: '13812345678' } });
    fireEvent.click(getButton(card, '发送验证码'));
    expect(await screen.findByText('60秒后重新发送')).toBeTruthy();
    expect(within(card).getByText('验证码已发送')).toBeTruthy();
    fireEvent.click(getButton(card, '验证'));
    expect(await screen.findByText('请输入验证码')).toBeTruthy();
    fireEvent.change(within(card).getByLabelText('手机号验证码'), { target: { value: '246810' } });
    fireEvent.click(getButton(card, '验证'));
    expect(await screen.findByText('手机号验证成功')).toBeTruthy();
    const verified = await screen.findByTestId('phone-verification');
    await waitFor(() => expect(within(verified).getByText('已验证')).toBeTruthy());
    expect(requests.find((r) => r.path === '/api/user/verify-phone')?.body).toEqual({
      phone: '13812345678',
      code: '246810',
    });

    fireEvent.click(getButton(await screen.findByTestId('phone-verification'), '修改'));
    await waitFor(() => expect(requests.some((r) => r.path === '/api/user/reset-phone')).toBe(true));
    await waitFor(() =>
      expect(within(screen.getByTestId('phone-verification')).getByText('未验证')).toBeTruthy(),
    );
  }, 60_000);

  it('e-mail: modify shows the form, the code goes to /auth/send-verify-code with a 600 s countdown', async () => {
    const { requests } = fakeServer({
      ...keys,
      'GET /api/user/info': () => ({ body: base }),
      'POST /api/auth/send-verify-code': () => ({ body: { ok: true } }),
      'POST /api/auth/verify-email': () => ({ status: 400, body: { detail: '验证码错误' } }),
    });
    renderRoutes(routes, '/user/profile');
    const card = await screen.findByTestId('email-verification');
    fireEvent.click(getButton(card, '修改'));
    const form = await screen.findByTestId('email-verification');
    fireEvent.change(within(form).getByLabelText('邮箱'), { target: { value: 'new@example.com' } });
    fireEvent.click(getButton(form, '发送验证码'));
    expect(await screen.findByText('600秒后重新发送')).toBeTruthy();
    expect(requests.find((r) => r.path === '/api/auth/send-verify-code')?.body).toEqual({
      email: 'new@example.com',
      method: 'email',
    });
    fireEvent.change(within(form).getByLabelText('邮箱验证码'), { target: { value: '111111' } });
    fireEvent.click(getButton(form, '验证'));
    expect(await screen.findByText('验证失败：验证码错误')).toBeTruthy();
  });

  it('saves SSH keys and shows the server’s refusal', async () => {
    let calls = 0;
    fakeServer({
      ...keys,
      'GET /api/user/info': () => ({ body: base }),
      'PUT /api/user/ssh-key': (r) => {
        calls++;
        return calls === 1
          ? { status: 400, body: { detail: '第1行不是有效的SSH公钥' } }
          : { body: { ...base, ssh_key: (r.body as { ssh_key: string }).ssh_key } };
      },
    });
    renderRoutes(routes, '/user/profile');
    const area = await screen.findByLabelText('SSH公钥');
    expect(area.getAttribute('maxlength')).toBe('2048');
    fireEvent.change(area, { target: { value: 'nonsense' } });
    fireEvent.click(getButton(document.body, '保存'));
    expect(await screen.findByText('保存失败：第1行不是有效的SSH公钥')).toBeTruthy();
    // The button leaves its loading state after the error message.
    await waitFor(() => expect(getButton(document.body, '保存').className).not.toContain('ant-btn-loading'));
    fireEvent.change(area, { target: { value: 'ssh-ed25519 AAAA dev@laptop' } });
    fireEvent.click(getButton(document.body, '保存'));
    expect(await screen.findByText('SSH公钥保存成功')).toBeTruthy();
  }, 60_000);

  it('binding WeChat asks for the authorize URL; a failure says 获取微信绑定二维码失败', async () => {
    fakeServer({
      ...keys,
      'GET /api/user/info': () => ({ body: base }),
      'GET /api/user/bind-wechat': () => ({ status: 500, body: {} }),
    });
    renderRoutes(routes, '/user/profile');
    fireEvent.click(getButton(await screen.findByTestId('wechat-binding'), '绑定微信'));
    expect(await screen.findByText('获取微信绑定二维码失败')).toBeTruthy();
    await act(async () => {});
  });
});
