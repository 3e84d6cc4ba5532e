import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ApiClient, startTestControlPlane } from '../../../test/harness.js';
import type { RunningControlPlane } from '../../platform.js';
import type { SmtpSettings } from './email.js';

interface Delivered {
  from: string;
  to: string[];
  user: string | undefined;
  mail: ParsedMail;
}

const delivered: Delivered[] = [];
let smtp: SMTPServer;
let port: number;
let cp: RunningControlPlane;
let wrongPassword: RunningControlPlane;

/** A real SMTP server on 127.0.0.1 (smtp-server) that requires AUTH and keeps what it receives. */
async function startSmtpServer() {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'mail-pass')
        return callback(null, { user: 'mailer' });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          delivered.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === 'string' ? session.user : undefined,
            mail,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const settings = (pass: string): SmtpSettings => ({
  host: '127.0.0.1',
  port,
  secure: false,
  user: 'mailer',
  pass,
  from: 'GPU 云平台 <noreply@gpucloud.test>',
});

beforeAll(async () => {
  smtp = await startSmtpServer();
  port = (smtp.server.address() as AddressInfo).port;
  cp = await startTestControlPlane({ smtp: settings('mail-pass') });
  wrongPassword = await startTestControlPlane({ smtp: settings('wrong') });
});
afterAll(async () => {
  await cp?.close();
  await wrongPassword?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

describe('e-mail over SMTP', () => {
  it('the registration code reaches the mailbox over authenticated SMTP, and registers the account', async () => {
    const api = new ApiClient(cp.url);
    const sent = await api.request('POST', '/api/auth/send-email-verify-code', { email: 'mia@example.com' });
    expect(sent.status).toBe(200);
    const message = delivered.find((d) => d.to.includes('mia@example.com'));
    expect(message).toBeDefined();
    const { mail, user, from } = message as Delivered;
    expect(user).toBe('mailer');
    expect(from).toBe('noreply@gpucloud.test');
    expect(mail.subject).toBe('【GPU 云平台】注册验证码');
    const code = /验证码为：(\d{6})/.exec(mail.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);

    const reg = await api.request('POST', '/api/auth/register', {
      username: 'mia',
      password: 'secret123',
      email: 'mia@example.com',
      email_verify_code: code,
    });
    expect(reg.status).toBe(201);

    // A real provider delivered it: the sandbox outbox stays empty.
    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const outbox = await admin.request<{ total: number; providers: { email: string } }>(
      'GET',
      '/api/admin/outbox',
    );
    expect(outbox.body).toMatchObject({ total: 0, providers: { email: 'smtp' } });
  });

  it('when the SMTP server refuses the login, sending answers 503 and a retry is not blocked', async () => {
    const api = new ApiClient(wrongPassword.url);
    for (let i = 0; i < 2; i++) {
      const res = await api.request<{ detail: string; code: string }>(
        'POST',
        '/api/auth/send-email-verify-code',
        {
          email: 'nils@example.com',
        },
      );
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ detail: '验证码发送失败，请稍后重试', code: 'CODE_DELIVERY_FAILED' });
    }
    expect(await wrongPassword.knex('verification_codes').where({ target: 'nils@example.com' })).toHaveLength(
      0,
    );
  });
});
