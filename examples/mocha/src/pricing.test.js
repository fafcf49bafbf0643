const assert = require('node:assert/strict');
const { addVat, applyDiscount, formatPrice } = require('./pricing');

describe('applyDiscount', () => {
  it('takes a percentage off', () => {
    assert.equal(applyDiscount(2000, 15), 1700);
  });

  it('rounds to whole cents', () => {
    assert.equal(applyDiscount(999, 10), 899);
  });

  it('rejects discounts above 100 %', () => {
    assert.throws(() => applyDiscount(1000, 120), RangeError);
  });
});

describe('addVat', () => {
  for (const [net, rate, gross] of [
    [1000, 20, 1200],
    [1999, 7, 2139],
  ]) {
    it(`adds VAT to ${net} cents at ${rate} %`, () => {
      assert.equal(addVat(net, rate), gross);
    });
  }
});

describe('formatPrice', () => {
  it('formats cents as a currency amount', () => {
    assert.equal(formatPrice(123456), '€1,234.56');
  });

  // A test without a function: Mocha's pending test, its todo.
  it('formats prices in the shopper’s locale');
});
