import type { AliyunSmsSettings } from './modules/messages/aliyun-sms.js';
import type { SmtpSettings } from './modules/messages/email.js';
import type { RateLimitPolicy } from './modules/rate-limits/service.js';
import type { WechatSettings } from './modules/wechat/open-platform.js';

/**
 * Settings of accounts and messages. Each provider is switched on by its credentials; without
 * them the platform runs with a sandbox (the outbox, the sandbox WeChat identity page).
 */
export interface AccountSettings {
  /** The console's public address, e.g. https://gpu.example.com (WeChat redirect URIs). */
  publicUrl?: string | undefined;
  smtp?: SmtpSettings | undefined;
  aliyunSms?: AliyunSmsSettings | undefined;
  wechat?: WechatSettings | undefined;
  /**
   * Without WeChat credentials: true (default) serves the sandbox identity page, where anyone can
   * sign in as any sandbox identity (development, demos); false switches WeChat login off.
   */
  wechatSandbox?: boolean | undefined;
  /** Overrides of the rate limits (tests use small ones). */
  rateLimits?: Partial<RateLimitPolicy> | undefined;
}

function required(env: NodeJS.ProcessEnv, name: string, because: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required when ${because} is set`);
  return value;
}

function flag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return /^(1|true|yes|on)$/i.test(value);
}

export function accountSettingsFromEnv(env: NodeJS.ProcessEnv): AccountSettings {
  const settings: AccountSettings = {};
  if (env.PUBLIC_URL) settings.publicUrl = new URL(env.PUBLIC_URL).origin;

  if (env.SMTP_HOST) {
    const port = env.SMTP_PORT ? Number(env.SMTP_PORT) : undefined;
    if (port !== undefined && !Number.isInteger(port))
      throw new Error(`SMTP_PORT is not a port: ${env.SMTP_PORT}`);
    const secure = flag(env.SMTP_SECURE) ?? port === 465;
    const from = env.SMTP_FROM || env.SMTP_USER;
    if (!from) throw new Error('SMTP_FROM is required when SMTP_HOST is set');
    settings.smtp = {
      host: env.SMTP_HOST,
      port: port ?? (secure ? 465 : 587),
      secure,
      user: env.SMTP_USER || undefined,
      pass: env.SMTP_PASS || undefined,
      from,
    };
  }

  if (env.ALIYUN_SMS_ACCESS_KEY_ID) {
    const because = 'ALIYUN_SMS_ACCESS_KEY_ID';
    settings.aliyunSms = {
      accessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID,
      accessKeySecret: required(env, 'ALIYUN_SMS_ACCESS_KEY_SECRET', because),
      signName: required(env, 'ALIYUN_SMS_SIGN_NAME', because),
      templateCode: required(env, 'ALIYUN_SMS_TEMPLATE_CODE', because),
      noticeTemplateCode: env.ALIYUN_SMS_NOTICE_TEMPLATE_CODE || undefined,
      endpoint: env.ALIYUN_SMS_ENDPOINT || 'https://dysmsapi.aliyuncs.com',
      regionId: env.ALIYUN_SMS_REGION_ID || 'cn-hangzhou',
    };
  }

  if (env.WECHAT_APP_ID) {
    settings.wechat = {
      appId: env.WECHAT_APP_ID,
      appSecret: required(env, 'WECHAT_APP_SECRET', 'WECHAT_APP_ID'),
      openBaseUrl: env.WECHAT_OPEN_BASE_URL || 'https://open.weixin.qq.com',
      apiBaseUrl: env.WECHAT_API_BASE_URL || 'https://api.weixin.qq.com',
    };
  }
  const sandbox = flag(env.WECHAT_SANDBOX);
  if (sandbox !== undefined) settings.wechatSandbox = sandbox;
  return settings;
}
