import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectServed } from '../../../test/contract.js';
import { ADMIN, ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { acceptsApiKey } from '../../framework/auth.js';
import type { RunningControlPlane } from '../../platform.js';
import { apiKeyListReply, apiKeyReply } from './contract.js';

let cp: RunningControlPlane;

beforeAll(async () => {
  cp = await startTestControlPlane();
});
afterAll(async () => {
  await cp?.close();
});

type Answer = { detail: string; code: string };
interface KeyAnswer {
  id: number;
  name: string;
  key: string;
  created_at: string;
}

async function user(name: string): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  return api;
}

describe('API keys', () => {
  it('creates a key shown in full once, lists it masked (first 6, last 4), reveals and deletes it', async () => {
    const api = await user('kim');
    const noName = await api.request<Answer>('POST', '/api/api-keys/', { name: '  ' });
    expect(noName.status).toBe(400);
    expect(noName.body.detail).toBe('请输入密钥名称');

    const created = await api.request<KeyAnswer>('POST', '/api/api-keys/', { name: '训练脚本' });
    expect(created.status).toBe(201);
    expectServed(apiKeyReply, created.body);
    const { id, key } = created.body;
    expect(key).toMatch(/^gpuc_[A-Za-z0-9_-]{40}$/);

    const list = await api.request<{ items: KeyAnswer[]; total: number }>('GET', '/api/api-keys/');
    expect(list.body.total).toBe(1);
    expectServed(apiKeyListReply, list.body);
    expect(list.body.items[0]).toMatchObject({
      id,
      name: '训练脚本',
      key: `${key.slice(0, 6)}********${key.slice(-4)}`,
    });
    expect(JSON.stringify(list.body)).not.toContain(key);

    // Revealing asks for the password again: none or a wrong one is 403 with the reason.
    const noPassword = await api.request<Answer>('POST', `/api/api-keys/${id}/reveal`, {});
    expect(noPassword.status).toBe(403);
    expect(noPassword.body.detail).toBe('查看完整密钥需要验证登录密码');
    // The old GET is gone: no password, no key.
    const viaGet = await fetch(`${cp.url}/api/api-keys/${id}/reveal`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    expect(viaGet.status).toBe(405);
    expect(await viaGet.text()).not.toContain(key);
    const wrong = await api.request<Answer>('POST', `/api/api-keys/${id}/reveal`, { password: 'nope-nope' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.detail).toBe('登录密码错误，无法查看密钥');
    expect(JSON.stringify(wrong.body)).not.toContain(key);
    const revealed = await api.request<{ key: string }>('POST', `/api/api-keys/${id}/reveal`, {
      password: 'secret123',
    });
    expect(revealed.status).toBe(200);
    expect(revealed.body.key).toBe(key);
    // Another user's key stays hidden whatever their own password.
    const other = await user('kim2');
    expect(
      (await other.request('POST', `/api/api-keys/${id}/reveal`, { password: 'secret123' })).status,
    ).toBe(404);

    expect((await api.request('DELETE', `/api/api-keys/${id}`)).status).toBe(200);
    expect((await api.request<{ total: number }>('GET', '/api/api-keys')).body.total).toBe(0);
    expect((await api.request('DELETE', `/api/api-keys/${id}`)).status).toBe(404);
  });

  it('refuses to reveal after 10 wrong passwords in 15 minutes, even the right one (429), per account', async () => {
    const api = await user('mona');
    const created = await api.request<KeyAnswer>('POST', '/api/api-keys', { name: 'guarded' });
    const reveal = (password: string) =>
      api.request<Answer>('POST', `/api/api-keys/${created.body.id}/reveal`, { password });
    for (let i = 0; i < 10; i++) expect((await reveal(`wrong-${i}`)).status).toBe(403);
    const refused = await reveal('secret123');
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^密码错误次数过多，请 \d+ 分钟后再试$/);
    // Another account is not affected.
    const other = await user('mona2');
    const own = await other.request<KeyAnswer>('POST', '/api/api-keys', { name: 'mine' });
    const shown = await other.request('POST', `/api/api-keys/${own.body.id}/reveal`, {
      password: 'secret123',
    });
    expect(shown.status).toBe(200);
  });

  it('allows at most 5 keys, even when six creations race', async () => {
    const api = await user('lena');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api.request<Answer>('POST', '/api/api-keys', { name: `k${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.find((r) => r.status === 400);
    expect(refused?.body).toEqual({ detail: 'Maximum number of API keys reached', code: 'API_KEY_LIMIT' });
    expect((await api.request<{ total: number }>('GET', '/api/api-keys')).body.total).toBe(5);
  });

  it('a leaked database holds no usable key: only a hash and a ciphertext under SECRET_KEY', async () => {
    const api = await user('max');
    const { key, id } = (await api.request<KeyAnswer>('POST', '/api/api-keys', { name: 'ci' })).body;
    const row = await cp.knex('api_keys').where({ id }).first();
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(6, -4));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.key_encrypted).toMatch(/^v1:/);
    // The hash itself is not accepted as a key.
    const withHash = await new ApiClient(cp.url).request('GET', '/api/mcp/whoami', undefined, {
      'x-api-key': row.key_hash,
    });
    expect(withHash.status).toBe(401);
  });

  it('X-API-Key authenticates /api/mcp/* and the public API a script needs, nothing else, and stops with the key’s deletion', async () => {
    const api = await user('nora');
    const { key, id } = (await api.request<KeyAnswer>('POST', '/api/api-keys', { name: 'mcp' })).body;
    const anon = new ApiClient(cp.url);
    const who = await anon.request<{ username: string; via: string }>('GET', '/api/mcp/whoami', undefined, {
      'X-API-Key': key,
    });
    expect(who.status).toBe(200);
    expect(who.body).toMatchObject({ username: 'nora', via: 'api_key' });
    // The public API a script needs: containers, the market, images and the balance.
    for (const path of [
      '/api/containers',
      '/api/cloud-products',
      '/api/images/mine',
      '/api/images',
      '/api/frameworks',
      '/api/billing/balance',
    ])
      expect((await anon.request('GET', path, undefined, { 'X-API-Key': key })).status, path).toBe(200);
    // Account settings, keys, payments, volumes and money records still need a session.
    for (const [method, path] of [
      ['GET', '/api/user/info'],
      ['GET', '/api/api-keys'],
      ['POST', '/api/billing/recharge'],
      ['GET', '/api/billing/billing-records'],
      ['GET', '/api/transactions'],
      ['GET', '/api/storage/volumes'],
    ] as const)
      expect(
        (await anon.request(method, path, method === 'GET' ? undefined : {}, { 'X-API-Key': key })).status,
        path,
      ).toBe(401);
    // A path that only begins like an accepted one is not accepted.
    expect(acceptsApiKey('/api/containersx')).toBe(false);
    expect(acceptsApiKey('/api/billing/balance/x')).toBe(false);
    expect(acceptsApiKey('/api/admin/containers')).toBe(false);
    expect((await anon.request('GET', '/api/mcp/whoami', undefined, { 'X-API-Key': `${key}x` })).status).toBe(
      401,
    );
    const row = await cp.knex('api_keys').where({ id }).first();
    expect(row.last_used_at).not.toBeNull();

    await api.request('DELETE', `/api/api-keys/${id}`);
    expect((await anon.request('GET', '/api/mcp/whoami', undefined, { 'X-API-Key': key })).status).toBe(401);
    // The session works there too.
    expect((await api.request<{ via: string }>('GET', '/api/mcp/whoami')).body.via).toBe('session');
  });

  it('an admin’s key does not open admin routes (they are not under /api/mcp)', async () => {
    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const { key } = (await admin.request<KeyAnswer>('POST', '/api/api-keys', { name: 'admin' })).body;
    const res = await new ApiClient(cp.url).request('GET', '/api/admin/users', undefined, {
      'X-API-Key': key,
    });
    expect(res.status).toBe(401);
  });
});
