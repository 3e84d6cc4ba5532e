import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectServed } from '../../../test/contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from '../../../test/harness.js';
import type { RunningControlPlane } from '../../platform.js';
import { adminUserDetailReply, adminUserListReply } from './contract.js';

let cp: RunningControlPlane;
let admin: ApiClient;

beforeAll(async () => {
  cp = await startTestControlPlane();
  admin = new ApiClient(cp.url);
  await admin.login(ADMIN.username, ADMIN.password);
  for (const name of ['zoe', 'zack', 'yuri']) await new ApiClient(cp.url).register(name);
});
afterAll(async () => {
  await cp?.close();
});

interface UserRow {
  id: number;
  username: string;
  email: string | null;
  is_admin: boolean;
  disabled: boolean;
  balance: number;
  created_at: string;
}
type Answer = { detail: string; code: string };

describe('admin users', () => {
  it('searches by username or e-mail and pages the result', async () => {
    const all = await admin.request<{ items: UserRow[]; total: number }>(
      'GET',
      '/api/admin/users?page=1&size=10',
    );
    expect(all.body.total).toBe(4);
    expectServed(adminUserListReply, all.body);
    expect(all.body.items[0]?.username).toBe('yuri');
    const z = await admin.request<{ items: UserRow[]; total: number }>('GET', '/api/admin/users?keyword=Z');
    expect(z.body.items.map((u) => u.username).sort()).toEqual(['zack', 'zoe']);
    const byMail = await admin.request<{ items: UserRow[] }>(
      'GET',
      '/api/admin/users?keyword=yuri%40example',
    );
    expect(byMail.body.items.map((u) => u.username)).toEqual(['yuri']);
    const page2 = await admin.request<{ items: UserRow[]; total: number }>(
      'GET',
      '/api/admin/users?page=2&size=10',
    );
    expect(page2.body).toEqual({ items: [], total: 4 });
    const bad = await admin.request<Answer>('GET', '/api/admin/users?size=7');
    expect(bad.status).toBe(400);
  });

  it('shows one user with balance, containers and orders', async () => {
    const zoe = await cp.knex('users').where({ username: 'zoe' }).first();
    const res = await admin.request<UserRow & { containers: unknown[]; orders: unknown[] }>(
      'GET',
      `/api/admin/users/${zoe.id}`,
    );
    expect(res.body).toMatchObject({
      username: 'zoe',
      email: 'zoe@example.com',
      // The new user's trial credit (NEW_USER_CREDIT_YUAN, 20 yuan by default).
      balance: 20,
      containers: [],
      orders: [],
    });
    expectServed(adminUserDetailReply, res.body);
    expect(JSON.stringify(res.body)).not.toContain('password');
    expect((await admin.request('GET', '/api/admin/users/999999')).status).toBe(404);
  });

  it('grants and revokes admin, and an admin cannot disable or demote themself', async () => {
    const zack = await cp.knex('users').where({ username: 'zack' }).first();
    const granted = await admin.request<UserRow>('POST', `/api/admin/users/${zack.id}/grant-admin`);
    expect(granted.body.is_admin).toBe(true);
    const zackApi = new ApiClient(cp.url);
    await zackApi.login('zack', 'secret123');
    expect((await zackApi.request('GET', '/api/admin/users')).status).toBe(200);
    const revoked = await admin.request<UserRow>('POST', `/api/admin/users/${zack.id}/revoke-admin`);
    expect(revoked.body.is_admin).toBe(false);
    // The flag is read per request: the same session lost its admin rights at once.
    expect((await zackApi.request('GET', '/api/admin/users')).status).toBe(403);

    const me = await cp.knex('users').where({ username: ADMIN.username }).first();
    const selfDisable = await admin.request<Answer>('POST', `/api/admin/users/${me.id}/disable`);
    expect(selfDisable.status).toBe(409);
    expect(selfDisable.body.detail).toBe('不能禁用自己的账号');
    const selfRevoke = await admin.request<Answer>('POST', `/api/admin/users/${me.id}/revoke-admin`);
    expect(selfRevoke.body.detail).toBe('不能撤销自己的管理员权限');
  });

  it('disables and enables an account', async () => {
    const yuri = await cp.knex('users').where({ username: 'yuri' }).first();
    const disabled = await admin.request<UserRow>('POST', `/api/admin/users/${yuri.id}/disable`);
    expect(disabled.body.disabled).toBe(true);
    const login = await new ApiClient(cp.url).request<Answer>('POST', '/api/auth/login', {
      username: 'yuri',
      password: 'secret123',
    });
    expect(login.status).toBe(403);
    const enabled = await admin.request<UserRow>('POST', `/api/admin/users/${yuri.id}/enable`);
    expect(enabled.body.disabled).toBe(false);
    await new ApiClient(cp.url).login('yuri', 'secret123');
  });
});
