import type { RecordQuery } from '../types';

export const billingKeys = {
  all: ['billing'] as const,
  balance: () => ['billing', 'balance'] as const,
  statistics: () => ['billing', 'statistics'] as const,
  records: (query: RecordQuery) => ['billing', 'records', query] as const,
  payment: (outTradeNo: string) => ['billing', 'payment', outTradeNo] as const,
  sandbox: (outTradeNo: string) => ['billing', 'sandbox', outTradeNo] as const,
};
