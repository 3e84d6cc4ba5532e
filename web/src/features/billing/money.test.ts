import { describe, expect, it } from 'vitest';
import {
  formatHours,
  PAYMENT_POLL_MAX_BACKOFF_MS,
  paymentStatusOf,
  pollBackoffMs,
  resolveCodeUrl,
  shouldRetryPoll,
  signedYuan,
  validateThreshold,
  validateTopUpAmount,
} from './money';

describe('payment rules', () => {
  it('maps trade states: SUCCESS → success, NOTPAY/USERPAYING → pending, a definite failure → failed', () => {
    expect(paymentStatusOf('SUCCESS')).toBe('success');
    expect(paymentStatusOf('NOTPAY')).toBe('pending');
    // The user scanned and is entering the password: still waiting, not 支付出错.
    expect(paymentStatusOf('USERPAYING')).toBe('pending');
    expect(paymentStatusOf(undefined)).toBe('pending');
    for (const s of ['CLOSED', 'PAYERROR', 'REVOKED', 'REFUND']) expect(paymentStatusOf(s)).toBe('failed');
  });

  it('retries a failed poll with backoff; only a definite refusal ends the QR flow', () => {
    expect([1, 2, 3, 4, 5, 10].map(pollBackoffMs)).toEqual([3000, 6000, 12000, 24000, 30000, 30000]);
    expect(pollBackoffMs(50)).toBe(PAYMENT_POLL_MAX_BACKOFF_MS);
    // Network failures, timeouts, 429 and 5xx pass: retried.
    expect(shouldRetryPoll(new TypeError('Failed to fetch'))).toBe(true);
    for (const status of [0, 408, 429, 500, 502, 503]) expect(shouldRetryPoll({ status })).toBe(true);
    // The session ended or the payment is not the user's: definite.
    for (const status of [400, 401, 403, 404]) expect(shouldRetryPoll({ status })).toBe(false);
  });

  it('validates the top-up amount (minimum 1, 2 decimals) and the threshold (minimum 0)', () => {
    expect(validateTopUpAmount(100)).toBeNull();
    expect(validateTopUpAmount(1)).toBeNull();
    expect(validateTopUpAmount(0.99)).toBe('充值金额最少为1元');
    expect(validateTopUpAmount(1.005)).toBe('金额最多保留两位小数');
    expect(validateTopUpAmount(null)).toBe('请输入充值金额');
    expect(validateThreshold(0)).toBeNull();
    expect(validateThreshold(-0.01)).toBe('告警阈值不能小于0');
  });

  it('shows expenses and negative amounts with a minus', () => {
    expect(signedYuan(-1.5, 'expense')).toBe('-¥1.50');
    expect(signedYuan(1.5, 'expense')).toBe('-¥1.50');
    expect(signedYuan(20, 'recharge')).toBe('+¥20.00');
    expect(formatHours(24)).toBe('24 小时');
    expect(formatHours(null)).toBe('-');
  });

  it('makes the sandbox QR target absolute', () => {
    expect(resolveCodeUrl('/pay/sandbox/P1', 'http://x.test')).toBe('http://x.test/pay/sandbox/P1');
    expect(resolveCodeUrl('weixin://wxpay/bizpayurl?pr=1', 'http://x.test')).toBe(
      'weixin://wxpay/bizpayurl?pr=1',
    );
  });
});
