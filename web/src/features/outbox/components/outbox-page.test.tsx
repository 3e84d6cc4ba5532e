import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, renderRoutes } from '../../../test/render';

// The first render of a lazily loaded route compiles it: warm the modules up outside the tests.
beforeAll(async () => {
  await Promise.all([
    import('../../../app/routes/admin/outbox'),
    import('../../../app/layouts/console-shell'),
  ]);
}, 60_000);

beforeEach(() => {
  setSession('tok', { username: 'admin', nickname: '', isAdmin: true });
});

describe('admin outbox', () => {
  it('lists what the sandbox providers kept, with the code, and says which providers are sandboxes', async () => {
    const { requests } = fakeServer({
      'GET /api/admin/outbox': () => ({
        body: {
          items: [
            {
              id: 2,
              channel: 'sms',
              to: '13812345678',
              subject: '',
              body: '【GPU 云平台】您的验证码为246810，5分钟内有效，请勿泄露给他人。',
              code: '246810',
              created_at: '2026-01-01T00:00:00Z',
            },
            {
              id: 1,
              channel: 'email',
              to: 'a@example.com',
              subject: '【GPU 云平台】注册验证码',
              body: '您正在注册账号，验证码为：135790',
              code: '135790',
              created_at: '2026-01-01T00:00:00Z',
            },
          ],
          total: 2,
          providers: { email: 'sandbox', sms: 'sandbox' },
        },
      }),
    });
    renderRoutes(routes, '/admin/outbox');
    const sms = await screen.findByTestId('outbox-row-2');
    expect(within(sms).getByText('短信')).toBeTruthy();
    expect(within(sms).getByText('246810')).toBeTruthy();
    expect(within(screen.getByTestId('outbox-row-1')).getByText('【GPU 云平台】注册验证码')).toBeTruthy();
    expect(screen.getByText('邮件：沙箱（未配置 SMTP）；短信：沙箱（未配置短信服务）')).toBeTruthy();
    await waitFor(() => expect(requests[0]?.search.get('size')).toBe('20'));
  });
});
