import { describe, expect, it } from 'vitest';
import {
  BILLING_TYPES,
  billingOptionLabel,
  billingTypeLabel,
  computeTotalPrice,
  formatDiscount,
  priceFormula,
  validateDuration,
} from '../../lib/billing-types';

describe('billing constants', () => {
  it('match the spec table', () => {
    expect(
      BILLING_TYPES.map((t) => [t.value, t.label, t.discountPercent, t.periodHours, t.maxDuration]),
    ).toEqual([
      ['hourly', '按小时计费', 100, 1, 720],
      ['daily', '包日', 95, 24, 30],
      ['weekly', '包周', 90, 168, 4],
      ['monthly', '包月', 80, 720, 12],
      ['yearly', '包年', 70, 8760, 3],
    ]);
  });

  it('labels unknown billing types as they are', () => {
    expect(billingTypeLabel('daily')).toBe('包日');
    expect(billingTypeLabel('spot')).toBe('spot');
    expect(billingTypeLabel(null)).toBe('-');
  });
});

describe('computeTotalPrice', () => {
  it('hourly: price × GPUs × hours', () => {
    expect(computeTotalPrice({ unitPrice: 2.5, gpuCount: 2, duration: 3, billingType: 'hourly' })).toBe(15);
  });

  it('daily applies 9.5折 over 24-hour periods', () => {
    // 1.99 × 1 × 1 × 24 × 0.95 = 45.372 → 45.37
    expect(computeTotalPrice({ unitPrice: 1.99, gpuCount: 1, duration: 1, billingType: 'daily' })).toBe(
      45.37,
    );
  });

  it('weekly, monthly and yearly use 24×7, 24×30 and 24×365 hours', () => {
    expect(computeTotalPrice({ unitPrice: 1, gpuCount: 1, duration: 1, billingType: 'weekly' })).toBe(151.2);
    expect(computeTotalPrice({ unitPrice: 1, gpuCount: 1, duration: 1, billingType: 'monthly' })).toBe(576);
    expect(computeTotalPrice({ unitPrice: 3.33, gpuCount: 8, duration: 3, billingType: 'yearly' })).toBe(
      Math.round(333 * 8 * 3 * 8760 * 0.7) / 100,
    );
  });

  it('rounds to two decimals without floating-point drift', () => {
    // 0.1 × 3 in floating point is 0.30000000000000004
    expect(computeTotalPrice({ unitPrice: 0.1, gpuCount: 3, duration: 1, billingType: 'hourly' })).toBe(0.3);
    expect(computeTotalPrice({ unitPrice: 1.15, gpuCount: 1, duration: 1, billingType: 'daily' })).toBe(
      26.22,
    );
  });
});

describe('formatDiscount', () => {
  it('shows discounts as 折', () => {
    expect(formatDiscount(100)).toBe('无折扣');
    expect(formatDiscount(95)).toBe('9.5折');
    expect(formatDiscount(90)).toBe('9折');
    expect(formatDiscount(70)).toBe('7折');
  });
});

describe('validateDuration', () => {
  it('requires a value of at least 1', () => {
    expect(validateDuration(undefined, 'hourly')).toBe('请输入使用时长');
    expect(validateDuration(null, 'hourly')).toBe('请输入使用时长');
    expect(validateDuration(0, 'hourly')).toBe('时长必须大于0');
  });

  it('enforces the maximum per billing type', () => {
    expect(validateDuration(720, 'hourly')).toBeNull();
    expect(validateDuration(721, 'hourly')).toBe('按小时计费最长720小时');
    expect(validateDuration(30, 'daily')).toBeNull();
    expect(validateDuration(31, 'daily')).not.toBeNull();
    expect(validateDuration(5, 'weekly')).not.toBeNull();
    expect(validateDuration(13, 'monthly')).not.toBeNull();
    expect(validateDuration(3, 'yearly')).toBeNull();
    expect(validateDuration(4, 'yearly')).toBe('包年最长3年');
  });

  it('refuses fractions', () => {
    expect(validateDuration(1.5, 'hourly')).toBe('时长必须为整数');
  });
});

describe('priceFormula', () => {
  it('writes the formula out, with period hours and the discount as 折', () => {
    expect(priceFormula({ unitPrice: 2.5, gpuCount: 2, duration: 3, billingType: 'daily' })).toBe(
      '¥2.50/卡/时 × 2卡 × 3天 × 24小时/天 × 9.5折 = ¥342.00',
    );
    expect(priceFormula({ unitPrice: 1.99, gpuCount: 1, duration: 5, billingType: 'hourly' })).toBe(
      '¥1.99/卡/时 × 1卡 × 5小时 = ¥9.95',
    );
    expect(priceFormula({ unitPrice: 1, gpuCount: 1, duration: 1, billingType: 'yearly' })).toBe(
      '¥1.00/卡/时 × 1卡 × 1年 × 8760小时/年 × 7折 = ¥6132.00',
    );
  });

  it('labels billing options with their discount', () => {
    expect(billingOptionLabel('hourly')).toBe('按小时计费');
    expect(billingOptionLabel('weekly')).toBe('包周（9折）');
  });
});
