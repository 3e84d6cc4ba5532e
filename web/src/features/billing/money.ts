/** Constants and pure rules of the balance, top-up and payment screens (spec §5, §9). */
export const DEFAULT_TOP_UP = 100;
export const MIN_TOP_UP = 1;
export const DEFAULT_ALERT_THRESHOLD = 100;
export const PAYMENT_POLL_MS = 3000;
export const QR_SIZE = 200;
export const QR_MARGIN = 2;
export const SUPPORT_HOURS = '9:00-21:00';
export const RECORD_PAGE_SIZES = [10, 20, 50, 100];

export type TopUpMethod = 'wechat' | 'service';
export type PaymentStatus = 'pending' | 'success' | 'failed';

/** WeChat Pay's trade states of a payment still under way: the QR keeps waiting. */
export const PENDING_TRADE_STATES = ['NOTPAY', 'USERPAYING'] as const;

/**
 * trade_state SUCCESS → success; NOTPAY and USERPAYING (the user is entering the password) →
 * pending, as is no answer yet; any other state (CLOSED, REVOKED, PAYERROR, REFUND) is a
 * definite failure (spec §4, with USERPAYING kept waiting).
 */
export function paymentStatusOf(tradeState: string | null | undefined): PaymentStatus {
  if (tradeState === 'SUCCESS') return 'success';
  if (!tradeState || (PENDING_TRADE_STATES as readonly string[]).includes(tradeState)) return 'pending';
  return 'failed';
}

/** The longest wait between two polls after failures. */
export const PAYMENT_POLL_MAX_BACKOFF_MS = 30_000;

/** The wait before retry number `failures` (1, 2, …) of a failed poll: 3 s, 6 s, 12 s … ≤ 30 s. */
export function pollBackoffMs(failures: number): number {
  return Math.min(PAYMENT_POLL_MAX_BACKOFF_MS, PAYMENT_POLL_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * Whether a failed poll is tried again: a network failure, a timeout, 429 or a 5xx is passing
 * (retried with backoff, the QR stays); 401/403/404 are definite (the session ended, the payment is
 * not the user's) and end the flow.
 */
export function shouldRetryPoll(error: unknown): boolean {
  const status =
    typeof error === 'object' && error !== null && 'status' in error
      ? (error as { status: unknown }).status
      : undefined;
  if (typeof status !== 'number' || status === 0) return true;
  return status === 408 || status === 429 || status >= 500;
}

const TRADE_STATE_TEXT: Record<string, string> = {
  CLOSED: '订单已关闭',
  REVOKED: '订单已撤销',
  PAYERROR: '支付失败',
  REFUND: '订单已退款',
  USERPAYING: '用户支付中',
  NOTPAY: '等待支付',
};

export function tradeStateText(state: string): string {
  return TRADE_STATE_TEXT[state] ?? state;
}

/** Amounts in yuan with at most 2 decimals. */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

export function validateTopUpAmount(value: number | null | undefined): string | null {
  if (value === null || value === undefined || Number.isNaN(value)) return '请输入充值金额';
  if (value < MIN_TOP_UP) return `充值金额最少为${MIN_TOP_UP}元`;
  if (!hasAtMostTwoDecimals(value)) return '金额最多保留两位小数';
  return null;
}

export function validateThreshold(value: number | null | undefined): string | null {
  if (value === null || value === undefined || Number.isNaN(value)) return '请输入告警阈值';
  if (value < 0) return '告警阈值不能小于0';
  if (!hasAtMostTwoDecimals(value)) return '告警阈值最多保留两位小数';
  return null;
}

/** The QR's target: the sandbox answers a path of this console, WeChat a weixin:// URL. */
export function resolveCodeUrl(codeUrl: string, origin: string): string {
  return codeUrl.startsWith('/') ? `${origin}${codeUrl}` : codeUrl;
}

export function yuan(amount: number): string {
  return `¥${amount.toFixed(2)}`;
}

/** Expenses and negative amounts carry a minus; incomes a plus. */
export function signedYuan(amount: number, type?: string): string {
  const negative = amount < 0 || type === 'expense';
  return `${negative ? '-' : '+'}¥${Math.abs(amount).toFixed(2)}`;
}

export const RECORD_TYPE_LABELS: Record<string, string> = {
  expense: '消费',
  recharge: '充值',
  refund: '退款',
};
export const PAYMENT_METHOD_LABELS: Record<string, string> = {
  wechat: '微信支付',
  alipay: '支付宝',
  balance: '余额',
  system: '系统',
  other: '其他',
};
export const RECORD_STATUS: Record<string, { label: string; color: string }> = {
  success: { label: '成功', color: 'success' },
  pending: { label: '待支付', color: 'warning' },
  failed: { label: '失败', color: 'error' },
};

/** Hours with up to 2 decimals, '-' when there is none. */
export function formatHours(hours: number | null | undefined): string {
  if (hours === null || hours === undefined) return '-';
  return `${Number(hours.toFixed(2))} 小时`;
}
