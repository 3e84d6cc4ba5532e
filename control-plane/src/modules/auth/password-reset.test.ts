import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, outboxCode, startTestControlPlane } from '../../../test/harness.js';
import type { RunningControlPlane } from '../../platform.js';
import { maskEmail, maskPhone } from './masks.js';

let cp: RunningControlPlane;

beforeAll(async () => {
  cp = await startTestControlPlane({
    rateLimits: { resetAttemptsPerUser: { limit: 8, windowSeconds: 3600 } },
  });
});
afterAll(async () => {
  await cp?.close();
});

type Answer = { detail: string; code: string };
const post = <T = Answer>(api: ApiClient, path: string, body: unknown) =>
  api.request<T>('POST', `/api/auth/${path}`, body);

/** A user with a verified e-mail (registration) and a verified phone. */
async function userWithPhone(name: string, phone: string): Promise<ApiClient> {
  const api = new ApiClient(cp.url);
  await api.register(name);
  await api.request('POST', '/api/user/send-phone-code', { phone });
  await api.request('POST', '/api/user/verify-phone', { phone, code: await outboxCode(cp.url, phone) });
  return api;
}

describe('masks of the forgot-password wizard', () => {
  it('hide the phone’s first 3 and last 4 digits, and show only the e-mail’s first character', () => {
    expect(maskPhone('13812345678')).toBe('***1234****');
    expect(maskEmail('alice@example.com')).toBe('a***@example.com');
  });
});

describe('forgot password', () => {
  it('by e-mail: username → masked contacts → code → new password; old sessions end, the code works once', async () => {
    const session = await userWithPhone('rita', '13812345678');
    const anon = new ApiClient(cp.url);
    const check = await post<{ username: string; phone: string; email: string }>(anon, 'check-username', {
      username: 'rita',
    });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ username: 'rita', phone: '***1234****', email: 'r***@example.com' });

    const sent = await post<{ ok: boolean; target: string }>(anon, 'send-reset-code', {
      username: 'rita',
      method: 'email',
    });
    expect(sent.body).toMatchObject({ ok: true, target: 'r***@example.com' });
    const code = await outboxCode(cp.url, 'rita@example.com');

    const wrong = await post(anon, 'verify-reset-code', {
      username: 'rita',
      code: code === '000000' ? '111111' : '000000',
      method: 'email',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('验证码错误');
    expect((await post(anon, 'verify-reset-code', { username: 'rita', code, method: 'email' })).status).toBe(
      200,
    );

    const reset = await post(anon, 'reset-password', { username: 'rita', code, password: 'brand-new-pw' });
    expect(reset.status).toBe(200);
    expect((await session.request('GET', '/api/user/info')).status).toBe(401);
    await anon.login('rita', 'brand-new-pw');
    const old = await post(new ApiClient(cp.url), 'login', { username: 'rita', password: 'secret123' });
    expect(old.status).toBe(401);

    const again = await post(anon, 'reset-password', { username: 'rita', code, password: 'another-pw' });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe('验证码已失效，请重新获取');
  });

  it('by phone: the code goes to the verified phone by SMS', async () => {
    await userWithPhone('sam', '13912345678');
    const anon = new ApiClient(cp.url);
    await cp
      .knex('verification_codes')
      .where({ target: '13912345678' })
      .update({ created_at: new Date(Date.now() - 61_000) });
    const sent = await post<{ target: string }>(anon, 'send-reset-code', {
      username: 'sam',
      method: 'phone',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.target).toBe('***1234****');
    const code = await outboxCode(cp.url, '13912345678');
    expect((await post(anon, 'verify-reset-code', { username: 'sam', code, method: 'phone' })).status).toBe(
      200,
    );
    expect(
      (await post(anon, 'reset-password', { username: 'sam', code, password: 'phone-reset' })).status,
    ).toBe(200);
    await anon.login('sam', 'phone-reset');
  });

  it('an expired code is refused', async () => {
    await new ApiClient(cp.url).register('tina');
    const anon = new ApiClient(cp.url);
    await post(anon, 'send-reset-code', { username: 'tina', method: 'email' });
    const code = await outboxCode(cp.url, 'tina@example.com');
    await cp
      .knex('verification_codes')
      .where({ target: 'tina@example.com', purpose: 'reset_password' })
      .update({ expires_at: new Date(Date.now() - 1) });
    const res = await post(anon, 'reset-password', { username: 'tina', code, password: 'whatever1' });
    expect(res.body.detail).toBe('验证码已失效，请重新获取');
  });

  it('validates with the spec’s messages and offers only verified contacts', async () => {
    const anon = new ApiClient(cp.url);
    expect((await post(anon, 'check-username', { username: 'ab' })).body.detail).toBe(
      '用户名长度不能小于3位',
    );
    expect((await post(anon, 'check-username', { username: 'nobody' })).status).toBe(404);
    expect(
      (await post(anon, 'reset-password', { username: 'abc', code: '123', password: 'secret1' })).body.detail,
    ).toBe('验证码必须为6位');
    expect(
      (await post(anon, 'reset-password', { username: 'abc', code: '123456', password: '123' })).body.detail,
    ).toBe('密码长度不能小于6位');
    // The seeded admin has neither e-mail nor phone.
    const admin = await post(anon, 'check-username', { username: 'admin' });
    expect(admin.status).toBe(400);
    expect(admin.body.code).toBe('NO_RECOVERY_CONTACT');
    await new ApiClient(cp.url).register('uma');
    const noPhone = await post(anon, 'send-reset-code', { username: 'uma', method: 'phone' });
    expect(noPhone.body.detail).toBe('该账号未绑定已验证的手机号');
  });

  it('wrong codes per account are limited across new codes (429)', async () => {
    await new ApiClient(cp.url).register('vera');
    const anon = new ApiClient(cp.url);
    const statuses: number[] = [];
    for (let round = 0; round < 2; round++) {
      await cp
        .knex('verification_codes')
        .where({ target: 'vera@example.com' })
        .update({ created_at: new Date(Date.now() - 61_000) });
      await post(anon, 'send-reset-code', { username: 'vera', method: 'email' });
      const code = await outboxCode(cp.url, 'vera@example.com');
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++)
        statuses.push((await post(anon, 'verify-reset-code', { username: 'vera', code: wrong })).status);
    }
    expect(statuses.slice(0, 8).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const limited = await post(anon, 'verify-reset-code', { username: 'vera', code: '123456' });
    expect(limited.body.detail).toMatch(/^尝试次数过多，请\d+分钟后再试$/);
  });
});
