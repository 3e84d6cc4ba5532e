import type { BillingType } from '@gpucloud/control-plane/api';

/**
 * The spec's billing types (§9): discount in percent and hours per period, and the longest
 * duration. The server computes the same total and refuses a purchase whose total differs.
 */
export const BILLING_TYPES: Record<
  BillingType,
  { percent: number; periodHours: number; maxDuration: number }
> = {
  hourly: { percent: 100, periodHours: 1, maxDuration: 720 },
  daily: { percent: 95, periodHours: 24, maxDuration: 30 },
  weekly: { percent: 90, periodHours: 24 * 7, maxDuration: 4 },
  monthly: { percent: 80, periodHours: 24 * 30, maxDuration: 12 },
  yearly: { percent: 70, periodHours: 24 * 365, maxDuration: 3 },
};

export const BILLING_TYPE_NAMES = Object.keys(BILLING_TYPES) as BillingType[];

/**
 * unit price × GPU count × duration × period hours × multiplier, rounded to 2 decimals, in
 * integer fen until the one rounding (no floating-point money).
 */
export function totalPrice(p: {
  unitPrice: number;
  gpuCount: number;
  duration: number;
  billingType: BillingType;
}): number {
  const t = BILLING_TYPES[p.billingType];
  const unitFen = Math.round(p.unitPrice * 100);
  const hundredthsOfFen = unitFen * p.gpuCount * p.duration * t.periodHours * t.percent;
  return Math.round(hundredthsOfFen / 100) / 100;
}
