import { describe, expect, it } from 'vitest';
import { addVat, applyDiscount, formatPrice } from './pricing.js';

describe('applyDiscount', () => {
  it('takes a percentage off', () => {
    expect(applyDiscount(2000, 15)).toBe(1700);
  });

  it('rounds to whole cents', () => {
    expect(applyDiscount(999, 10)).toBe(899);
  });

  it('rejects discounts above 100 %', () => {
    expect(() => applyDiscount(1000, 120)).toThrow(RangeError);
  });
});

describe('addVat', () => {
  it.each([
    [1000, 20, 1200],
    [1999, 7, 2139],
  ])('adds VAT to %i cents at %i %%', (net, rate, gross) => {
    expect(addVat(net, rate)).toBe(gross);
  });
});

describe('formatPrice', () => {
  it('formats cents as a currency amount', () => {
    expect(formatPrice(123456)).toBe('€1,234.56');
  });

  it.todo('formats prices in the shopper’s locale');
});
