const assert = require('node:assert/strict');
const { Cart } = require('./cart');

describe('Cart', () => {
  let cart;

  beforeEach(() => {
    cart = new Cart();
  });

  it('starts empty', () => {
    assert.equal(cart.itemCount, 0);
    assert.equal(cart.total, 0);
  });

  it('merges line items with the same SKU', () => {
    cart.add({ sku: 'mug', unitPrice: 1200, quantity: 1 });
    cart.add({ sku: 'mug', unitPrice: 1200, quantity: 2 });
    assert.equal(cart.itemCount, 3);
    assert.equal(cart.subtotal, 3600);
  });

  it('removes a line item', () => {
    cart.add({ sku: 'mug', unitPrice: 1200, quantity: 1 });
    cart.remove('mug');
    assert.equal(cart.itemCount, 0);
  });

  it('rejects a quantity that is not a positive whole number', () => {
    assert.throws(() => cart.add({ sku: 'mug', unitPrice: 1200, quantity: 0.5 }), RangeError);
  });

  describe('with a discount', () => {
    it('applies it to the total, not the subtotal', () => {
      cart.add({ sku: 'lamp', unitPrice: 5000, quantity: 2 });
      cart.applyDiscount(10);
      assert.equal(cart.subtotal, 10000);
      assert.equal(cart.total, 9000);
    });

    it.skip('stacks a coupon on top of the discount (coupons are not built yet)', () => {
      cart.applyDiscount(10);
    });
  });
});
