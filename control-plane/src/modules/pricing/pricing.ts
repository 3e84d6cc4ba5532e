/** The billing types of the spec (§9): label, discount and hours per period, max duration. */
export const BILLING_TYPES = {
  hourly: { label: '按小时计费', percent: 100, periodHours: 1, maxDuration: 720 },
  daily: { label: '包日', percent: 95, periodHours: 24, maxDuration: 30 },
  weekly: { label: '包周', percent: 90, periodHours: 24 * 7, maxDuration: 4 },
  monthly: { label: '包月', percent: 80, periodHours: 24 * 30, maxDuration: 12 },
  yearly: { label: '包年', percent: 70, periodHours: 24 * 365, maxDuration: 3 },
} as const;

export type BillingType = keyof typeof BILLING_TYPES;
export const BILLING_TYPE_NAMES = Object.keys(BILLING_TYPES) as [BillingType, ...BillingType[]];

/**
 * Total price in fen = unit price × GPU count × duration × period hours × multiplier, rounded
 * to whole fen (2 decimals of yuan). Integer arithmetic until the single rounding.
 */
export function totalPriceFen(params: {
  unitPriceFen: number;
  gpuCount: number;
  billingType: BillingType;
  duration: number;
}): number {
  const t = BILLING_TYPES[params.billingType];
  const raw = params.unitPriceFen * params.gpuCount * params.duration * t.periodHours * t.percent;
  return Math.round(raw / 100);
}
