import type { ApiKey } from '@gpucloud/control-plane/api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../app/router';
import { setSession } from '../../../lib/auth';
import { fakeServer, getButton, renderRoutes, dialog as topDialog } from '../../../test/render';

// The first render of a lazily loaded route compiles it: warm the modules up outside the tests.
beforeAll(async () => {
  await Promise.all([import('../../../app/routes/profile'), import('../../../app/layouts/console-shell')]);
}, 60_000);

const profile = {
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
  balance: 0,
};
const FULL = 'gpuc_abcdefghijklmnopqrstuvwxyz0123456789ABCD';
const masked = (key: string) => `${key.slice(0, 6)}********${key.slice(-4)}`;
const key = (id: number): ApiKey => ({
  id,
  name: `key-${id}`,
  key: masked(`${FULL}${id}`),
  created_at: '2026-01-01T00:00:00Z',
  last_used_at: null,
});

beforeEach(() => {
  setSession('tok', { username: 'alice', nickname: '', isAdmin: false });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('API keys on the profile', () => {
  it('creates a key: the name is required, the full key is shown once, the list shows it masked', async () => {
    let keys: ApiKey[] = [];
    const { requests } = fakeServer({
      'GET /api/user/info': () => ({ body: profile }),
      'GET /api/api-keys/': () => ({ body: { items: keys, total: keys.length } }),
      'POST /api/api-keys/': (r) => {
        const created = { ...key(1), name: (r.body as { name: string }).name, key: FULL };
        keys = [{ ...created, key: masked(FULL) }];
        return { status: 201, body: created };
      },
    });
    renderRoutes(routes, '/user/profile');
    fireEvent.click(await waitForEnabled('创建密钥'));
    const dialog = await findElement('.ant-modal');
    fireEvent.click(getButton(dialog, '创建'));
    expect(await within(dialog).findByText('请输入密钥名称')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('密钥名称'), { target: { value: '训练脚本' } });
    fireEvent.click(getButton(dialog, '创建'));
    expect(await screen.findByText('创建成功')).toBeTruthy();
    expect((await screen.findByTestId('created-api-key')).textContent).toContain(FULL);
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({ name: '训练脚本' });
    fireEvent.click(getButton(document.body, '我已保存'));
    const row = await screen.findByTestId('api-key-row-1');
    await waitFor(() =>
      expect(within(row).getByTestId('api-key-value').textContent).toBe('gpuc_a********ABCD'),
    );
  }, 60_000);

  it('asks for the password, reveals a key for 10 seconds, then masks it again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = fakeServer({
      'GET /api/user/info': () => ({ body: profile }),
      'GET /api/api-keys/': () => ({ body: { items: [key(3)], total: 1 } }),
      'POST /api/api-keys/3/reveal': (req) =>
        (req.body as { password?: string }).password === 'right-one'
          ? { body: { id: 3, key: `${FULL}3` } }
          : { status: 403, body: { detail: '登录密码错误，无法查看密钥' } },
    });
    renderRoutes(routes, '/user/profile');
    const row = await screen.findByTestId('api-key-row-3');
    fireEvent.click(getButton(row, '显示'));
    await screen.findByText('查看完整密钥前，请输入当前账号的登录密码。');
    const prompt = topDialog();
    fireEvent.change(within(prompt).getByLabelText('登录密码'), { target: { value: 'wrong' } });
    fireEvent.click(getButton(prompt, '确定'));
    expect(await screen.findByText('显示密钥失败：登录密码错误，无法查看密钥')).toBeTruthy();
    expect(within(row).getByTestId('api-key-value').textContent).not.toContain(`${FULL}3`);
    fireEvent.change(within(prompt).getByLabelText('登录密码'), { target: { value: 'right-one' } });
    fireEvent.click(getButton(prompt, '确定'));
    await waitFor(() => expect(within(row).getByTestId('api-key-value').textContent).toContain(`${FULL}3`));
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { password: 'wrong' },
      { password: 'right-one' },
    ]);
    await act(async () => {
      vi.advanceTimersByTime(9_000);
    });
    expect(within(row).getByTestId('api-key-value').textContent).toContain(`${FULL}3`);
    await act(async () => {
      vi.advanceTimersByTime(1_100);
    });
    await waitFor(() =>
      expect(within(row).getByTestId('api-key-value').textContent).toBe(masked(`${FULL}3`)),
    );
  });

  it('deletes a key after confirmation, and reports a failure with the server detail', async () => {
    let fail = true;
    const { requests } = fakeServer({
      'GET /api/user/info': () => ({ body: profile }),
      'GET /api/api-keys/': () => ({ body: { items: [key(4)], total: 1 } }),
      'DELETE /api/api-keys/4': () =>
        fail ? { status: 404, body: { detail: 'API 密钥不存在' } } : { body: { ok: true } },
    });
    renderRoutes(routes, '/user/profile');
    const row = await screen.findByTestId('api-key-row-4');
    fireEvent.click(getButton(row, '删除'));
    fireEvent.click(getButton(await findElement('.ant-popover:not(.ant-popover-hidden)'), '确定'));
    expect(await screen.findByText('删除 API 密钥失败: API 密钥不存在')).toBeTruthy();
    fail = false;
    fireEvent.click(getButton(row, '删除'));
    fireEvent.click(getButton(await findElement('.ant-popover:not(.ant-popover-hidden)'), '确定'));
    expect(await screen.findByText('删除成功')).toBeTruthy();
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(2);
  }, 60_000);

  it('at 5 keys the create button is disabled', async () => {
    fakeServer({
      'GET /api/user/info': () => ({ body: profile }),
      'GET /api/api-keys/': () => ({ body: { items: [1, 2, 3, 4, 5].map(key), total: 5 } }),
    });
    renderRoutes(routes, '/user/profile');
    await screen.findByTestId('api-key-row-5');
    expect(getButton(document.body, '创建密钥').disabled).toBe(true);
  });

  it('a 400 Maximum number of API keys reached reads 您已达到最大 API 密钥数量限制 (5个)', async () => {
    fakeServer({
      'GET /api/user/info': () => ({ body: profile }),
      'GET /api/api-keys/': () => ({ body: { items: [key(1)], total: 1 } }),
      'POST /api/api-keys/': () => ({
        status: 400,
        body: { detail: 'Maximum number of API keys reached', code: 'API_KEY_LIMIT' },
      }),
    });
    renderRoutes(routes, '/user/profile');
    fireEvent.click(await waitForEnabled('创建密钥'));
    const dialog = await findElement('.ant-modal');
    fireEvent.change(within(dialog).getByLabelText('密钥名称'), { target: { value: 'x' } });
    fireEvent.click(getButton(dialog, '创建'));
    expect(await screen.findByText('您已达到最大 API 密钥数量限制 (5个)')).toBeTruthy();
  });
});

async function waitForEnabled(name: string): Promise<HTMLButtonElement> {
  let button: HTMLButtonElement | undefined;
  await waitFor(() => {
    button = getButton(document.body, name);
    expect(button.disabled).toBe(false);
  });
  return button as HTMLButtonElement;
}

/** Role queries are slow on antd pages in jsdom; overlays are found by their class. */
async function findElement(selector: string): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = document.querySelector<HTMLElement>(selector);
    expect(found).not.toBeNull();
  });
  return found as unknown as HTMLElement;
}
