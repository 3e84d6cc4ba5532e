import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ApiClient, startTestControlPlane } from '../../../test/harness.js';
import { startAliyunSmsStandIn } from '../../../test/stand-ins/aliyun-sms.js';
import type { RunningControlPlane } from '../../platform.js';
import { signRpcRequest } from './aliyun-sms.js';

const credentials = { accessKeyId: 'LTAI-test-id', accessKeySecret: 'test-secret-123' };
let standIn: Awaited<ReturnType<typeof startAliyunSmsStandIn>>;
let cp: RunningControlPlane;
let badSecret: RunningControlPlane;

beforeAll(async () => {
  standIn = await startAliyunSmsStandIn(credentials);
  const sms = (secret: string) => ({
    accessKeyId: credentials.accessKeyId,
    accessKeySecret: secret,
    signName: 'GPU云平台',
    templateCode: 'SMS_123456789',
    noticeTemplateCode: 'SMS_NOTICE_42',
    endpoint: standIn.url,
    regionId: 'cn-hangzhou',
  });
  cp = await startTestControlPlane({ aliyunSms: sms(credentials.accessKeySecret) });
  badSecret = await startTestControlPlane({ aliyunSms: sms('not-the-secret') });
});
afterAll(async () => {
  await cp?.close();
  await badSecret?.close();
  await standIn?.close();
});

describe('SMS through Aliyun', () => {
  it('signs requests exactly as the example of Aliyun’s signature documentation', () => {
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    };
    expect(signRpcRequest('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('the phone code goes out as a signed SendSms with the template, verifies the phone, and resends only after 60 s', async () => {
    const api = new ApiClient(cp.url);
    await api.register('sms_user');
    const sent = await api.request<{ expires_in: number }>('POST', '/api/user/send-phone-code', {
      phone: '13800138000',
    });
    expect(sent.status).toBe(200);
    expect(sent.body.expires_in).toBe(300);
    const sms = standIn.received.find((m) => m.phone === '13800138000');
    expect(sms).toMatchObject({ signName: 'GPU云平台', templateCode: 'SMS_123456789' });
    const code = sms?.templateParam.code;
    expect(code).toMatch(/^\d{6}$/);

    const again = await api.request<{ detail: string }>('POST', '/api/user/send-phone-code', {
      phone: '13800138000',
    });
    expect(again.status).toBe(429);
    expect(again.body.detail).toMatch(/^验证码发送过于频繁，请(5\d|60)秒后再试$/);

    const verified = await api.request<{ phone: string; is_phone_verified: boolean }>(
      'POST',
      '/api/user/verify-phone',
      {
        phone: '13800138000',
        code,
      },
    );
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ phone: '13800138000', is_phone_verified: true });

    const admin = new ApiClient(cp.url);
    await admin.login(ADMIN.username, ADMIN.password);
    const outbox = await admin.request<{ items: { channel: string }[]; providers: { sms: string } }>(
      'GET',
      '/api/admin/outbox?channel=sms',
    );
    expect(outbox.body.items).toHaveLength(0);
    expect(outbox.body.providers.sms).toBe('aliyun');
  });

  it('a notice (balance alert, release warning) goes out with the notice template and its subject', async () => {
    await cp.services.accounts.messages.sendNotice({
      phone: '13900139000',
      subject: '余额不足提醒',
      text: '您的账户余额已低于告警阈值 100.00 元。',
    });
    const sms = standIn.received.find((m) => m.phone === '13900139000');
    expect(sms).toMatchObject({ templateCode: 'SMS_NOTICE_42', templateParam: { subject: '余额不足提醒' } });
  });

  it('a refused signature or the provider’s flow control answers 503 and keeps no code', async () => {
    const api = new ApiClient(badSecret.url);
    await api.register('sms_bad');
    const res = await api.request<{ detail: string }>('POST', '/api/user/send-phone-code', {
      phone: '13900139000',
    });
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe('验证码发送失败，请稍后重试');

    standIn.refusePhones.add('13700137000');
    const good = new ApiClient(cp.url);
    await good.register('sms_limited');
    const limited = await good.request<{ detail: string }>('POST', '/api/user/send-phone-code', {
      phone: '13700137000',
    });
    expect(limited.status).toBe(503);
    expect(await cp.knex('verification_codes').where({ target: '13700137000' })).toHaveLength(0);
  });
});
