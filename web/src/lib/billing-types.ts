import type { BillingType } from '@gpucloud/control-plane/api';

// Billing types, multipliers, period hours and duration maxima (spec §9). The types themselves
// are the control plane's (`BillingType`); their labels and discounts are the console's.

export interface BillingTypeInfo {
  value: BillingType;
  label: string;
  /** Multiplier on the unit price, in percent (95 = 9.5折), so price arithmetic stays in integers. */
  discountPercent: number;
  periodHours: number;
  maxDuration: number;
  /** Unit of the duration input. */
  unit: string;
}

export const BILLING_TYPES: readonly BillingTypeInfo[] = [
  {
    value: 'hourly',
    label: '按小时计费',
    discountPercent: 100,
    periodHours: 1,
    maxDuration: 720,
    unit: '小时',
  },
  { value: 'daily', label: '包日', discountPercent: 95, periodHours: 24, maxDuration: 30, unit: '天' },
  { value: 'weekly', label: '包周', discountPercent: 90, periodHours: 24 * 7, maxDuration: 4, unit: '周' },
  { value: 'monthly', label: '包月', discountPercent: 80, periodHours: 24 * 30, maxDuration: 12, unit: '月' },
  { value: 'yearly', label: '包年', discountPercent: 70, periodHours: 24 * 365, maxDuration: 3, unit: '年' },
];

export const DEFAULT_BILLING_TYPE: BillingType = 'hourly';

export function isBillingType(value: unknown): value is BillingType {
  return BILLING_TYPES.some((info) => info.value === value);
}

export function billingTypeInfo(type: BillingType): BillingTypeInfo {
  const info = BILLING_TYPES.find((item) => item.value === type);
  if (!info) throw new Error(`unknown billing type ${type}`);
  return info;
}

/** The label for display; unknown values from the server are shown as they are. */
export function billingTypeLabel(type: string | null | undefined): string {
  if (!type) return '-';
  return isBillingType(type) ? billingTypeInfo(type).label : type;
}

export interface PriceInput {
  /** Yuan per GPU per hour. */
  unitPrice: number;
  gpuCount: number;
  duration: number;
  billingType: BillingType;
}

/**
 * price × GPU count × duration × period hours × multiplier, rounded to 2 decimals.
 * Computed in fen with integers (the server refuses a total that differs from its own).
 */
export function computeTotalPrice({ unitPrice, gpuCount, duration, billingType }: PriceInput): number {
  const info = billingTypeInfo(billingType);
  const unitFen = Math.round(unitPrice * 100);
  const hundredthsOfFen = unitFen * gpuCount * duration * info.periodHours * info.discountPercent;
  return Math.round(hundredthsOfFen / 100) / 100;
}

/** 100 → '无折扣', 95 → '9.5折', 80 → '8折'. */
export function formatDiscount(discountPercent: number): string {
  if (discountPercent >= 100) return '无折扣';
  return `${discountPercent / 10}折`;
}

export const MSG_DURATION_REQUIRED = '请输入使用时长';
export const MSG_DURATION_POSITIVE = '时长必须大于0';

export function validateDuration(value: number | null | undefined, billingType: BillingType): string | null {
  if (value === null || value === undefined || Number.isNaN(value)) return MSG_DURATION_REQUIRED;
  if (value < 1) return MSG_DURATION_POSITIVE;
  if (!Number.isInteger(value)) return '时长必须为整数';
  const info = billingTypeInfo(billingType);
  if (value > info.maxDuration) return `${info.label}最长${info.maxDuration}${info.unit}`;
  return null;
}

const PERIOD_NAMES: Record<BillingType, string> = {
  hourly: '时',
  daily: '天',
  weekly: '周',
  monthly: '月',
  yearly: '年',
};

/** The select label of a billing type, with its discount: '包日（9.5折）'. */
export function billingOptionLabel(type: BillingType): string {
  const info = billingTypeInfo(type);
  return info.discountPercent < 100 ? `${info.label}（${formatDiscount(info.discountPercent)}）` : info.label;
}

/**
 * The price formula written out for the summary:
 * '¥2.50/卡/时 × 2卡 × 3天 × 24小时/天 × 9.5折 = ¥342.00'.
 */
export function priceFormula(input: PriceInput): string {
  const info = billingTypeInfo(input.billingType);
  const parts = [
    `¥${input.unitPrice.toFixed(2)}/卡/时`,
    `${input.gpuCount}卡`,
    `${input.duration}${info.unit}`,
  ];
  if (info.periodHours > 1) parts.push(`${info.periodHours}小时/${PERIOD_NAMES[input.billingType]}`);
  if (info.discountPercent < 100) parts.push(formatDiscount(info.discountPercent));
  return `${parts.join(' × ')} = ¥${computeTotalPrice(input).toFixed(2)}`;
}
