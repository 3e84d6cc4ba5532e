import { readFileSync } from 'node:fs';
import type { WechatPaySettings } from './modules/billing/wechat-pay.js';

/** A new user's trial credit (spec: 20 yuan), unless NEW_USER_CREDIT_YUAN says otherwise. */
export const DEFAULT_NEW_USER_CREDIT_FEN = 2000;
/** How often running containers are settled, unless METERING_INTERVAL_SECONDS says otherwise. */
export const DEFAULT_METERING_INTERVAL_MS = 60_000;

/** Settings of money: the trial credit, WeChat Pay (API v3) and the metering jobs. */
export interface BillingSettings {
  /** Trial credit of a new user in fen (NEW_USER_CREDIT_YUAN, default 20 yuan). */
  newUserCreditFen?: number | undefined;
  /** WeChat Pay API v3 (Native). Without it top-ups go through the sandbox payment page. */
  wechatPay?: WechatPaySettings | undefined;
  /** PAYMENTS_SANDBOX=false refuses top-ups when WeChat Pay is not configured (production). */
  paymentsSandbox?: boolean | undefined;
  /** How often running hourly containers are settled (METERING_INTERVAL_SECONDS, default 60). */
  meteringIntervalMs?: number | undefined;
  /** BILLING_JOBS=false runs no job worker in this process (the API still works). */
  billingJobs?: boolean | undefined;
}

function pem(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required when WECHAT_PAY_MCH_ID is set`);
  // Either the PEM itself (newlines may be written as \n) or the path of a PEM file.
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  return readFileSync(value, 'utf8');
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is required when WECHAT_PAY_MCH_ID is set`);
  return value;
}

export function billingSettingsFromEnv(env: NodeJS.ProcessEnv): BillingSettings {
  const settings: BillingSettings = {};
  if (env.NEW_USER_CREDIT_YUAN !== undefined && env.NEW_USER_CREDIT_YUAN !== '') {
    const yuan = Number(env.NEW_USER_CREDIT_YUAN);
    if (!Number.isFinite(yuan) || yuan < 0) throw new Error('NEW_USER_CREDIT_YUAN must be a yuan amount ≥ 0');
    settings.newUserCreditFen = Math.round(yuan * 100);
  }
  if (env.METERING_INTERVAL_SECONDS) {
    const seconds = Number(env.METERING_INTERVAL_SECONDS);
    if (!Number.isInteger(seconds) || seconds < 1) throw new Error('METERING_INTERVAL_SECONDS must be ≥ 1');
    settings.meteringIntervalMs = seconds * 1000;
  }
  if (env.BILLING_JOBS) settings.billingJobs = !/^(0|false|no|off)$/i.test(env.BILLING_JOBS);
  if (env.PAYMENTS_SANDBOX) settings.paymentsSandbox = !/^(0|false|no|off)$/i.test(env.PAYMENTS_SANDBOX);
  if (env.WECHAT_PAY_MCH_ID) {
    const apiV3Key = required(env, 'WECHAT_PAY_API_V3_KEY');
    if (Buffer.byteLength(apiV3Key) !== 32) throw new Error('WECHAT_PAY_API_V3_KEY must be 32 characters');
    const publicUrl = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : undefined;
    const notifyUrl = env.WECHAT_PAY_NOTIFY_URL || (publicUrl && `${publicUrl}/api/billing/wechat/notify`);
    if (!notifyUrl) throw new Error('WECHAT_PAY_NOTIFY_URL (or PUBLIC_URL) is required with WeChat Pay');
    settings.wechatPay = {
      mchId: env.WECHAT_PAY_MCH_ID,
      appId: required(env, 'WECHAT_PAY_APP_ID'),
      serialNo: required(env, 'WECHAT_PAY_SERIAL_NO'),
      privateKey: pem(env, 'WECHAT_PAY_PRIVATE_KEY'),
      apiV3Key,
      platformPublicKey: pem(env, 'WECHAT_PAY_PLATFORM_PUBLIC_KEY'),
      platformSerial: required(env, 'WECHAT_PAY_PLATFORM_SERIAL'),
      notifyUrl,
      baseUrl: env.WECHAT_PAY_BASE_URL || 'https://api.mch.weixin.qq.com',
    };
  }
  return settings;
}
