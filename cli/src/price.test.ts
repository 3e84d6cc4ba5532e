import { describe, expect, it } from 'vitest';
import {
  BILLING_TYPES as SERVER_TYPES,
  totalPriceFen,
} from '../../control-plane/src/modules/pricing/pricing.js';
import { BILLING_TYPE_NAMES, BILLING_TYPES, totalPrice } from './price.js';

describe('the purchase total the CLI sends', () => {
  it('follows the spec’s examples', () => {
    expect(totalPrice({ unitPrice: 1.99, gpuCount: 1, duration: 1, billingType: 'hourly' })).toBe(1.99);
    // 2.5 × 2 × 3 days × 24 h × 95% = 342
    expect(totalPrice({ unitPrice: 2.5, gpuCount: 2, duration: 3, billingType: 'daily' })).toBe(342);
    // 1.99 × 1 × 1 month × 720 h × 80% = 1146.24
    expect(totalPrice({ unitPrice: 1.99, gpuCount: 1, duration: 1, billingType: 'monthly' })).toBe(1146.24);
  });

  it('is the total the server computes (it refuses any other), for every billing type', () => {
    expect(BILLING_TYPE_NAMES.sort()).toEqual(Object.keys(SERVER_TYPES).sort());
    for (const billingType of BILLING_TYPE_NAMES) {
      expect(BILLING_TYPES[billingType].maxDuration).toBe(SERVER_TYPES[billingType].maxDuration);
      for (const unitPrice of [0, 0.01, 0.33, 1.99, 2.07, 3.14, 19.99, 123.45])
        for (const gpuCount of [1, 3, 8])
          for (const duration of [1, 2, 3]) {
            const fen = totalPriceFen({
              unitPriceFen: Math.round(unitPrice * 100),
              gpuCount,
              billingType,
              duration,
            });
            expect(totalPrice({ unitPrice, gpuCount, duration, billingType })).toBe(fen / 100);
          }
    }
  });
});
