import { describe, expect, it } from 'vitest';
import { singleCurrency } from '@/lib/metrics/currency';

describe('singleCurrency', () => {
  it('is the common currency, or null when they differ, one is unknown or there is none', () => {
    expect(singleCurrency(['INR', 'INR'])).toBe('INR');
    expect(singleCurrency(new Set(['EUR']))).toBe('EUR');
    expect(singleCurrency(['INR', 'USD'])).toBeNull();
    expect(singleCurrency(['INR', null])).toBeNull();
    expect(singleCurrency([null, null])).toBeNull();
    expect(singleCurrency([])).toBeNull();
  });
});
