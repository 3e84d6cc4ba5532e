import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningControlPlane, startControlPlane } from '../src/platform.js';
import { ADMIN, ApiClient, createTestDatabase, outboxCode, testConfig } from './harness.js';

// Two replicas on one database with one SECRET_KEY, as behind a load balancer.
let a: RunningControlPlane;
let b: RunningControlPlane;

beforeAll(async () => {
  const url = await createTestDatabase();
  const overrides = {
    secretKey: randomBytes(32),
    rateLimits: {
      loginFailuresPerUser: { limit: 4, windowSeconds: 900 },
      codesPerIp: { limit: 10_000, windowSeconds: 3600 },
    },
  };
  a = await startControlPlane(testConfig(url, overrides), () => {});
  b = await startControlPlane(testConfig(url, overrides), () => {});
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

type Answer = { detail: string; code: string };

describe('the control plane keeps no account state in memory', () => {
  it('failed logins count across replicas: the 5th attempt is refused (429) on either one', async () => {
    await new ApiClient(a.url).register('ravi', 'right-password');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const replica = i % 2 === 0 ? a : b;
      const res = await new ApiClient(replica.url).request('POST', '/api/auth/login', {
        username: 'ravi',
        password: 'wrong-password',
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401]);
    for (const replica of [a, b]) {
      const res = await new ApiClient(replica.url).request<Answer>('POST', '/api/auth/login', {
        username: 'RAVI',
        password: 'right-password',
      });
      expect(res.status).toBe(429);
      expect(res.body.detail).toMatch(/^登录失败次数过多，请\d+分钟后再试$/);
    }
    const rows = await a.knex('rate_limit_counters').where('key', 'login:user:ravi');
    expect(rows).toHaveLength(1);
  });

  it('a code sent by one replica is checked by the other, and the resend interval holds on both', async () => {
    const api = new ApiClient(a.url);
    expect(
      (await api.request('POST', '/api/auth/send-email-verify-code', { email: 'sia@example.com' })).status,
    ).toBe(200);
    const second = await new ApiClient(b.url).request('POST', '/api/auth/send-email-verify-code', {
      email: 'sia@example.com',
    });
    expect(second.status).toBe(429);
    const reg = await new ApiClient(b.url).request('POST', '/api/auth/register', {
      username: 'sia',
      password: 'secret123',
      email: 'sia@example.com',
      email_verify_code: await outboxCode(a.url, 'sia@example.com'),
    });
    expect(reg.status).toBe(201);
  });

  it('a session and a WeChat state from one replica work on the other', async () => {
    const api = new ApiClient(a.url);
    await api.register('tom');
    expect(
      (
        await new ApiClient(b.url).request('GET', '/api/user/info', undefined, {
          authorization: `Bearer ${api.token}`,
        })
      ).status,
    ).toBe(200);

    const start = await new ApiClient(a.url).request<{ state: string }>('GET', '/api/auth/wechat/login');
    const { code } = (
      await new ApiClient(b.url).request<{ code: string }>('POST', '/api/auth/wechat/sandbox/authorize', {
        nickname: '两副本',
        state: start.body.state,
      })
    ).body;
    const login = await new ApiClient(a.url).request<{ purpose: string }>(
      'POST',
      '/api/auth/wechat/callback',
      {
        code,
        state: start.body.state,
      },
    );
    expect(login.body.purpose).toBe('login');
    const reused = await new ApiClient(b.url).request<Answer>('POST', '/api/auth/wechat/callback', {
      code,
      state: start.body.state,
    });
    expect(reused.body.code).toBe('WECHAT_CODE_USED');
  });

  it('a disabled user’s sessions and API keys stop working on every replica at once', async () => {
    const api = new ApiClient(a.url);
    await api.register('uli');
    const key = (await api.request<{ key: string }>('POST', '/api/api-keys', { name: 'k' })).body.key;
    const uli = await a.knex('users').where({ username: 'uli' }).first();
    const admin = new ApiClient(b.url);
    await admin.login(ADMIN.username, ADMIN.password);
    expect((await admin.request('POST', `/api/admin/users/${uli.id}/disable`)).status).toBe(200);

    for (const replica of [a, b]) {
      const client = new ApiClient(replica.url);
      client.token = api.token;
      expect((await client.request('GET', '/api/user/info')).status).toBe(401);
      expect((await client.request('GET', '/api/mcp/whoami', undefined, { 'X-API-Key': key })).status).toBe(
        401,
      );
      const login = await new ApiClient(replica.url).request<Answer>('POST', '/api/auth/login', {
        username: 'uli',
        password: 'secret123',
      });
      expect(login.status).toBe(403);
      expect(login.body.detail).toBe('账号已被禁用，请联系客服');
    }

    expect((await admin.request('POST', `/api/admin/users/${uli.id}/enable`)).status).toBe(200);
    // Enabling does not revive the old session, but the key and a new login work again.
    expect((await api.request('GET', '/api/user/info')).status).toBe(401);
    expect(
      (await new ApiClient(a.url).request('GET', '/api/mcp/whoami', undefined, { 'X-API-Key': key })).status,
    ).toBe(200);
    await new ApiClient(b.url).login('uli', 'secret123');
  });
});
