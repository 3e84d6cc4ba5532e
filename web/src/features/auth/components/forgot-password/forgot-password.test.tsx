import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../../app/router';
import { fakeServer, getButton, renderRoutes } from '../../../../test/render';

// The first render of a lazily loaded route compiles it: warm the modules up outside the tests.
beforeAll(async () => {
  await Promise.all([
    import('../../../../app/routes/forgot-password'),
    import('../../../../app/layouts/console-shell'),
  ]);
}, 60_000);

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const step = (n: number) => screen.findByTestId(`reset-step-${n}`);

function server() {
  return fakeServer({
    'POST /api/auth/check-username': () => ({
      body: { username: 'rita', phone: '***1234****', email: 'r***@example.com' },
    }),
    'POST /api/auth/send-reset-code': (r) => ({
      body: {
        ok: true,
        target: (r.body as { method: string }).method === 'phone' ? '***1234****' : 'r***@example.com',
      },
    }),
    'POST /api/auth/verify-reset-code': () => ({ body: { ok: true } }),
    'POST /api/auth/reset-password': () => ({ body: { ok: true } }),
  });
}

describe('forgot password wizard', () => {
  it('walks the five steps, with the back buttons 2→1, 3→2 and 4→3', async () => {
    const { requests } = server();
    renderRoutes(routes, '/forgot-password');
    await step(1);
    type('用户名', 'rita');
    fireEvent.click(getButton(document.body, '下一步'));

    await step(2);
    expect(screen.getByText('手机号 ***1234****')).toBeTruthy();
    expect(screen.getByText('邮箱 r***@example.com')).toBeTruthy();
    fireEvent.click(getButton(document.body, '上一步'));
    await step(1);
    type('用户名', 'rita');
    fireEvent.click(getButton(document.body, '下一步'));
    await step(2);
    fireEvent.click(screen.getByText('邮箱 r***@example.com'));
    fireEvent.click(getButton(document.body, '发送验证码'));

    await step(3);
    expect(screen.getByText('验证码已发送至 r***@example.com')).toBeTruthy();
    expect(await screen.findByText('验证码已发送')).toBeTruthy();
    expect(screen.getByText('60秒后重新发送')).toBeTruthy();
    fireEvent.click(getButton(document.body, '上一步'));
    await step(2);
    fireEvent.click(getButton(document.body, '发送验证码'));
    await step(3);
    type('验证码', '123456');
    fireEvent.click(getButton(document.body, '下一步'));

    await step(4);
    fireEvent.click(getButton(document.body, '上一步'));
    await step(3);
    type('验证码', '123456');
    fireEvent.click(getButton(document.body, '下一步'));
    await step(4);
    type('新密码', 'new-secret');
    type('确认新密码', 'new-secret');
    fireEvent.click(getButton(document.body, '确认重置'));

    await step(5);
    expect((await screen.findAllByText('密码重置成功')).length).toBeGreaterThan(0);
    expect(requests.find((r) => r.path === '/api/auth/reset-password')?.body).toEqual({
      username: 'rita',
      password: 'new-secret',
      code: '123456',
    });
    expect(requests.filter((r) => r.path === '/api/auth/send-reset-code').map((r) => r.body)).toEqual([
      { username: 'rita', method: 'email' },
      { username: 'rita', method: 'email' },
    ]);
    expect(requests.find((r) => r.path === '/api/auth/verify-reset-code')?.body).toEqual({
      username: 'rita',
      code: '123456',
      method: 'email',
    });
  }, 60_000);

  it('checks the form rules of each step', async () => {
    const { requests } = server();
    renderRoutes(routes, '/forgot-password');
    await step(1);
    fireEvent.click(getButton(document.body, '下一步'));
    expect(await screen.findByText('请输入用户名')).toBeTruthy();
    type('用户名', 'ab');
    expect(await screen.findByText('用户名长度不能小于3位')).toBeTruthy();
    type('用户名', 'rita');
    fireEvent.click(getButton(document.body, '下一步'));
    await step(2);
    fireEvent.click(getButton(document.body, '发送验证码'));
    await step(3);
    type('验证码', '123');
    fireEvent.click(getButton(document.body, '下一步'));
    expect(await screen.findByText('验证码必须为6位')).toBeTruthy();
    type('验证码', '654321');
    fireEvent.click(getButton(document.body, '下一步'));
    await step(4);
    type('新密码', '123');
    type('确认新密码', '1234');
    fireEvent.click(getButton(document.body, '确认重置'));
    expect(await screen.findByText('密码长度不能小于6位')).toBeTruthy();
    expect(screen.getByText('两次输入的密码不一致')).toBeTruthy();
    expect(requests.filter((r) => r.path === '/api/auth/reset-password')).toHaveLength(0);
  }, 60_000);

  it('shows the server’s detail when a step is refused', async () => {
    fakeServer({
      'POST /api/auth/check-username': () => ({
        status: 404,
        body: { detail: '用户不存在', code: 'USER_NOT_FOUND' },
      }),
    });
    renderRoutes(routes, '/forgot-password');
    await step(1);
    type('用户名', 'nobody');
    fireEvent.click(getButton(document.body, '下一步'));
    expect(await screen.findByText('用户不存在')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('reset-step-1')).toBeTruthy());
  });
});
