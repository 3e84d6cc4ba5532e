import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ApiClient, outboxCode, outboxMessage, startTestControlPlane } from '../../../test/harness.js';
import type { RunningControlPlane } from '../../platform.js';

let cp: RunningControlPlane;

beforeAll(async () => {
  cp = await startTestControlPlane();
});
afterAll(async () => {
  await cp?.close();
});

type Answer = { detail: string; code: string };

async function sendCode(api: ApiClient, email: string) {
  return api.request<{ ok: boolean; expires_in: number } & Answer>(
    'POST',
    '/api/auth/send-email-verify-code',
    {
      email,
    },
  );
}

describe('register with an e-mail code, login and logout', () => {
  it('registers with the code from the e-mail, signs in, reads the profile and signs out', async () => {
    const api = new ApiClient(cp.url);
    const sent = await sendCode(api, 'Alice@Example.com');
    expect(sent.status).toBe(200);
    expect(sent.body.expires_in).toBe(600);
    const mail = await outboxMessage(cp.url, 'alice@example.com');
    expect(mail.channel).toBe('email');
    expect(mail.subject).toContain('注册验证码');
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.body).toContain(mail.code);

    const reg = await api.request<{ token: string; username: string; is_admin: boolean }>(
      'POST',
      '/api/auth/register',
      { username: 'alice', password: 'secret123', email: 'alice@example.com', email_verify_code: mail.code },
    );
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ username: 'alice', is_admin: false });

    await api.login('alice', 'secret123');
    const info = await api.request<{ username: string; email: string; is_email_verified: boolean }>(
      'GET',
      '/api/user/info',
    );
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      username: 'alice',
      email: 'alice@example.com',
      is_email_verified: true,
    });

    expect((await api.request('POST', '/api/auth/logout')).status).toBe(200);
    const after = await api.request<Answer>('GET', '/api/user/info');
    expect(after.status).toBe(401);
    expect(after.body.detail).toBeTruthy();
  });

  it('without, with a wrong or with a used code, registration is refused', async () => {
    const api = new ApiClient(cp.url);
    const body = { username: 'bruno', password: 'secret123', email: 'bruno@example.com' };
    const missing = await api.request<Answer>('POST', '/api/auth/register', body);
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('请输入验证码');

    const none = await api.request<Answer>('POST', '/api/auth/register', {
      ...body,
      email_verify_code: '123456',
    });
    expect(none.status).toBe(400);
    expect(none.body.detail).toBe('验证码已失效，请重新获取');

    await sendCode(api, body.email);
    const code = await outboxCode(cp.url, body.email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const refused = await api.request<Answer>('POST', '/api/auth/register', {
      ...body,
      email_verify_code: wrong,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe('验证码错误');

    // A code sent to one address does not register another.
    const other = await api.request<Answer>('POST', '/api/auth/register', {
      ...body,
      email: 'mallory@example.com',
      email_verify_code: code,
    });
    expect(other.body.detail).toBe('验证码已失效，请重新获取');

    expect(
      (await api.request('POST', '/api/auth/register', { ...body, email_verify_code: code })).status,
    ).toBe(201);
    const again = await api.request<Answer>('POST', '/api/auth/register', {
      ...body,
      username: 'bruno2',
      email_verify_code: code,
    });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe('验证码已失效，请重新获取');
  });

  it('an expired code is refused, and five wrong guesses kill a code', async () => {
    const api = new ApiClient(cp.url);
    const email = 'clara@example.com';
    await sendCode(api, email);
    const code = await outboxCode(cp.url, email);
    await cp
      .knex('verification_codes')
      .where({ target: email })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await api.request<Answer>('POST', '/api/auth/register', {
      username: 'clara',
      password: 'secret123',
      email,
      email_verify_code: code,
    });
    expect(expired.body.detail).toBe('验证码已失效，请重新获取');

    await cp
      .knex('verification_codes')
      .where({ target: email })
      .update({ created_at: new Date(Date.now() - 61_000) });
    await sendCode(api, email);
    const fresh = await outboxCode(cp.url, email);
    const wrong = fresh === '000000' ? '111111' : '000000';
    const details: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api.request<Answer>('POST', '/api/auth/register', {
        username: 'clara',
        password: 'secret123',
        email,
        email_verify_code: wrong,
      });
      details.push(res.body.detail);
    }
    expect(details.at(-1)).toBe('验证码错误次数过多，请重新获取');
    const locked = await api.request<Answer>('POST', '/api/auth/register', {
      username: 'clara',
      password: 'secret123',
      email,
      email_verify_code: fresh,
    });
    expect(locked.status).toBe(400);
    expect(locked.body.detail).toBe('验证码错误次数过多，请重新获取');
  });

  it('a second code within 60 s is refused with the seconds to wait', async () => {
    const api = new ApiClient(cp.url);
    expect((await sendCode(api, 'dora@example.com')).status).toBe(200);
    const again = await sendCode(api, 'dora@example.com');
    expect(again.status).toBe(429);
    expect(again.body.detail).toMatch(/^验证码发送过于频繁，请\d+秒后再试$/);
    const bad = await sendCode(api, 'not-an-email');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('请输入正确的邮箱地址');
  });

  it('more than 10 codes an hour to one address are refused', async () => {
    const api = new ApiClient(cp.url);
    const email = 'spam@example.com';
    for (let i = 0; i < 10; i++) {
      expect((await sendCode(api, email)).status).toBe(200);
      await cp
        .knex('verification_codes')
        .where({ target: email })
        .update({ created_at: new Date(Date.now() - 61_000) });
    }
    const refused = await sendCode(api, email);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^验证码发送次数过多，请\d+分钟后再试$/);
  });

  it('stores passwords as argon2id hashes and codes as keyed hashes, never in clear', async () => {
    const api = new ApiClient(cp.url);
    await api.register('bob', 'bob-password');
    const row = await cp.knex('users').where({ username: 'bob' }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain('bob-password');
    const code = await outboxCode(cp.url, 'bob@example.com');
    const stored = await cp.knex('verification_codes').where({ target: 'bob@example.com' }).first();
    expect(stored.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.code_hash).not.toContain(code);
    expect(stored.consumed_at).not.toBeNull();
  });

  it('refuses bad input with the spec messages', async () => {
    const api = new ApiClient(cp.url);
    const cases: [Record<string, string>, string][] = [
      [
        { username: 'ab', password: 'secret1', email: 'a@b.cn', email_verify_code: '1' },
        '用户名至少需要3个字符',
      ],
      [
        { username: 'carol', password: '123', email: 'a@b.cn', email_verify_code: '1' },
        '密码至少需要6个字符',
      ],
      [
        { username: 'carol', password: 'secret1', email: 'not-an-email', email_verify_code: '1' },
        '请输入正确的邮箱地址',
      ],
      [{ username: 'carol', password: 'secret1', email: 'a@b.cn', email_verify_code: ' ' }, '请输入验证码'],
    ];
    for (const [body, detail] of cases) {
      const res = await api.request<Answer>('POST', '/api/auth/register', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
    }
    const empty = await api.request<Answer>('POST', '/api/auth/login', { username: '', password: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('请输入用户名和密码');
  });

  it('refuses a taken username before using up the code, and a wrong password', async () => {
    const api = new ApiClient(cp.url);
    await api.register('dave');
    await sendCode(api, 'd2@example.com');
    const code = await outboxCode(cp.url, 'd2@example.com');
    const taken = await api.request<Answer>('POST', '/api/auth/register', {
      username: 'DAVE',
      password: 'secret123',
      email: 'd2@example.com',
      email_verify_code: code,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('用户名已存在');
    const other = await api.request('POST', '/api/auth/register', {
      username: 'dave2',
      password: 'secret123',
      email: 'd2@example.com',
      email_verify_code: code,
    });
    expect(other.status).toBe(201);
    const wrong = await api.request<Answer>('POST', '/api/auth/login', {
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
    const res = await user.request<Answer>('GET', '/api/admin/nodes');
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('需要管理员权限');
    expect((await new ApiClient(cp.url).request('GET', '/api/admin/nodes')).status).toBe(401);
  });

  it('a session past its expiry no longer works, even one the server remembers', async () => {
    const api = new ApiClient(cp.url);
    await api.register('frank');
    const user = await cp.knex('users').where({ username: 'frank' }).first();
    const expiry = Date.now() + 1500;
    await cp
      .knex('sessions')
      .where({ user_id: user.id })
      .update({ expires_at: new Date(expiry) });
    expect((await api.request('GET', '/api/user/info')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiry - Date.now() + 50));
    expect((await api.request('GET', '/api/user/info')).status).toBe(401);
  });

  it('answers unknown API paths with a Chinese detail', async () => {
    const res = await new ApiClient(cp.url).request<Answer>('GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: '接口不存在', code: 'ROUTE_NOT_FOUND' });
  });
});
