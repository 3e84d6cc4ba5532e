import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectServed } from '../../../test/contract.js';
import { ApiClient, outboxCode, startTestControlPlane } from '../../../test/harness.js';
import type { RunningControlPlane } from '../../platform.js';
import { profileReply } from './contract.js';
import { authorizedKeys } from './service.js';

let cp: RunningControlPlane;

beforeAll(async () => {
  cp = await startTestControlPlane();
});
afterAll(async () => {
  await cp?.close();
});

type Answer = { detail: string; code: string };
interface ProfileAnswer {
  phone: string | null;
  email: string | null;
  ssh_key: string | null;
  is_phone_verified: boolean;
  is_email_verified: boolean;
}

const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICXHolNn+JKZJRzasK3dTGU3ghBkiC2UzaYmnGHYOSKk dev@laptop';

describe('profile', () => {
  it('verifies a phone by SMS code; modify (reset-phone) returns it to unverified', async () => {
    const api = new ApiClient(cp.url);
    await api.register('pia');
    expectServed(profileReply, (await api.request('GET', '/api/user/info')).body);
    const bad = await api.request<Answer>('POST', '/api/user/send-phone-code', { phone: '12345678901' });
    expect(bad.body.detail).toBe('请输入正确的手机号');
    expect((await api.request('POST', '/api/user/send-phone-code', { phone: '15012345678' })).status).toBe(
      200,
    );
    const sms = await cp.knex('outbox_messages').where({ to: '15012345678' }).first();
    expect(sms).toMatchObject({ channel: 'sms', subject: '' });
    expect(sms.body).toContain(sms.code);

    const noCode = await api.request<Answer>('POST', '/api/user/verify-phone', {
      phone: '15012345678',
      code: '',
    });
    expect(noCode.body.detail).toBe('请输入验证码');
    // A code sent to one phone does not verify another.
    const otherPhone = await api.request<Answer>('POST', '/api/user/verify-phone', {
      phone: '15012345679',
      code: sms.code,
    });
    expect(otherPhone.status).toBe(400);
    const ok = await api.request<ProfileAnswer>('POST', '/api/user/verify-phone', {
      phone: '15012345678',
      code: sms.code,
    });
    expect(ok.body).toMatchObject({ phone: '15012345678', is_phone_verified: true });

    const reset = await api.request<ProfileAnswer>('POST', '/api/user/reset-phone');
    expect(reset.body).toMatchObject({ phone: '15012345678', is_phone_verified: false });
  });

  it('verifies a new e-mail with the code sent to it', async () => {
    const api = new ApiClient(cp.url);
    await api.register('quinn');
    const sent = await api.request('POST', '/api/auth/send-verify-code', {
      email: 'quinn@new.example',
      method: 'email',
    });
    expect(sent.status).toBe(200);
    const code = await outboxCode(cp.url, 'quinn@new.example');
    const wrong = await api.request<Answer>('POST', '/api/auth/verify-email', { verify_code: '' });
    expect(wrong.body.detail).toBe('请输入验证码');
    const ok = await api.request<ProfileAnswer>('POST', '/api/auth/verify-email', { verify_code: code });
    expect(ok.body).toMatchObject({ email: 'quinn@new.example', is_email_verified: true });
    // Someone else's session cannot use quinn's code.
    const other = new ApiClient(cp.url);
    await other.register('quinn_other');
    await other.request('POST', '/api/auth/send-verify-code', { email: 'x@new.example', method: 'email' });
    const stolen = await other.request<Answer>('POST', '/api/auth/verify-email', { verify_code: code });
    expect(stolen.status).toBe(400);
  });

  it('saves SSH keys one per line, refuses invalid keys and long texts, and hands them to containers', async () => {
    const api = new ApiClient(cp.url);
    await api.register('ravi');
    const saved = await api.request<ProfileAnswer>('PUT', '/api/user/ssh-key', {
      ssh_key: `  ${ED25519}  \n\n`,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.ssh_key).toBe(ED25519);
    const user = await cp.services.users.findByUsername('ravi');
    expect(authorizedKeys(user as NonNullable<typeof user>)).toEqual([ED25519]);

    const invalid = await api.request<Answer>('PUT', '/api/user/ssh-key', {
      ssh_key: `${ED25519}\nssh-rsa AAAA`,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.detail).toMatch(/^第2行不是有效的SSH公钥/);
    const long = await api.request<Answer>('PUT', '/api/user/ssh-key', { ssh_key: 'a'.repeat(2049) });
    expect(long.body.detail).toBe('SSH公钥不能超过2048个字符');
    const cleared = await api.request<ProfileAnswer>('PUT', '/api/user/ssh-key', { ssh_key: '' });
    expect(cleared.body.ssh_key).toBeNull();
  });

  it('needs a session', async () => {
    const anon = new ApiClient(cp.url);
    for (const [method, path] of [
      ['GET', '/api/user/info'],
      ['POST', '/api/user/send-phone-code'],
      ['POST', '/api/user/verify-phone'],
      ['POST', '/api/user/reset-phone'],
      ['POST', '/api/auth/send-verify-code'],
      ['POST', '/api/auth/verify-email'],
      ['PUT', '/api/user/ssh-key'],
      ['GET', '/api/user/bind-wechat'],
    ] as const) {
      expect((await anon.request(method, path, method === 'GET' ? undefined : {})).status, path).toBe(401);
    }
  });
});
