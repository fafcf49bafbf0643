const { addVat, applyDiscount, formatPrice } = require('../src/pricing');

describe('applyDiscount', () => {
  it('takes a percentage off', () => {
    expect(applyDiscount(2000, 15)).toBe(1700);
  });

  it('rounds to whole cents', () => {
    expect(applyDiscount(999, 10)).toBe(899);
  });

  it('rejects discounts above 100 %', () => {
    expect(() => applyDiscount(1000, 120)).toThrowError(RangeError);
  });
});

describe('addVat', () => {
  for (const [net, rate, gross] of [
    [1000, 20, 1200],
    [1999, 7, 2139],
  ]) {
    it(`adds VAT to ${net} cents at ${rate} %`, () => {
      expect(addVat(net, rate)).toBe(gross);
    });
  }
});

describe('formatPrice', () => {
  it('formats cents as a currency amount', () => {
    expect(formatPrice(123456)).toBe('€1,234.56');
  });

  // A test without a function: Mocha's pending test, its todo.
  it('formats prices in the shopper’s locale');
});
