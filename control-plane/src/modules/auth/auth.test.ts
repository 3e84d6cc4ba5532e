import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ApiClient, startTestControlPlane } from '../../../test/harness.js';
import type { RunningControlPlane } from '../../platform.js';

let cp: RunningControlPlane;

beforeAll(async () => {
  cp = await startTestControlPlane();
});
afterAll(async () => {
  await cp?.close();
});

describe('register, login and logout', () => {
  it('registers a user who can then sign in, read the profile and sign out', async () => {
    const api = new ApiClient(cp.url);
    const reg = await api.request<{ token: string; username: string; is_admin: boolean }>(
      'POST',
      '/api/auth/register',
      {
        username: 'alice',
        password: 'secret123',
        email: 'alice@example.com',
      },
    );
    expect(reg.status).toBe(201);
    expect(reg.body.username).toBe('alice');
    expect(reg.body.is_admin).toBe(false);

    await api.login('alice', 'secret123');
    const info = await api.request<{ username: string; email: string; balance: number }>(
      'GET',
      '/api/user/info',
    );
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ username: 'alice', email: 'alice@example.com' });

    expect((await api.request('POST', '/api/auth/logout')).status).toBe(200);
    const after = await api.request<{ detail: string; code: string }>('GET', '/api/user/info');
    expect(after.status).toBe(401);
    expect(after.body.detail).toBeTruthy();
  });

  it('stores passwords as argon2id hashes, never in clear', async () => {
    const api = new ApiClient(cp.url);
    await api.register('bob', 'bob-password');
    const row = await cp.knex('users').where({ username: 'bob' }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('bob-password');
  });

  it('refuses bad input with the spec messages', async () => {
    const api = new ApiClient(cp.url);
    const cases: [Record<string, string>, string][] = [
      [{ username: 'ab', password: 'secret1', email: 'a@b.cn' }, '用户名至少需要3个字符'],
      [{ username: 'carol', password: '123', email: 'a@b.cn' }, '密码至少需要6个字符'],
      [{ username: 'carol', password: 'secret1', email: 'not-an-email' }, '请输入正确的邮箱地址'],
    ];
    for (const [body, detail] of cases) {
      const res = await api.request<{ detail: string; code: string }>('POST', '/api/auth/register', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    const empty = await api.request<{ detail: string }>('POST', '/api/auth/login', {
      username: '',
      password: '',
    });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('请输入用户名和密码');
  });

  it('refuses a taken username and a wrong password', async () => {
    const api = new ApiClient(cp.url);
    await api.register('dave');
    const again = await api.request<{ detail: string }>('POST', '/api/auth/register', {
      username: 'DAVE',
      password: 'secret123',
      email: 'd@example.com',
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('用户名已存在');
    const wrong = await api.request<{ detail: string }>('POST', '/api/auth/login', {
      username: 'dave',
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.detail).toBe('用户名或密码错误');
  });

  it('seeds the admin from the configuration, and admin routes refuse everyone else', async () => {
    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    expect((await admin.request('GET', '/api/admin/nodes')).status).toBe(200);

    const user = new ApiClient(cp.url);
    await user.register('erin');
    for (const [method, path] of [
      ['GET', '/api/admin/nodes'],
      ['POST', '/api/admin/nodes'],
      ['GET', '/api/admin/containers'],
    ] as const) {
      const res = await user.request<{ detail: string }>(method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.detail).toBe('需要管理员权限');
    }
    const anonymous = new ApiClient(cp.url);
    expect((await anonymous.request('GET', '/api/admin/nodes')).status).toBe(401);
  });

  it('answers unknown API paths with a Chinese detail', async () => {
    const res = await new ApiClient(cp.url).request<{ detail: string; code: string }>('GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: '接口不存在', code: 'ROUTE_NOT_FOUND' });
  });
});
