const { Cart } = require('../src/cart');

describe('Cart', () => {
  let cart;

  beforeEach(() => {
    cart = new Cart();
  });

  it('starts empty', () => {
    expect(cart.itemCount).toBe(0);
    expect(cart.total).toBe(0);
  });

  it('merges line items with the same SKU', () => {
    cart.add({ sku: 'mug', unitPrice: 1200, quantity: 1 });
    cart.add({ sku: 'mug', unitPrice: 1200, quantity: 2 });
    expect(cart.itemCount).toBe(3);
    expect(cart.subtotal).toBe(3600);
  });

  it('removes a line item', () => {
    cart.add({ sku: 'mug', unitPrice: 1200, quantity: 1 });
    cart.remove('mug');
    expect(cart.itemCount).toBe(0);
  });

  it('rejects a quantity that is not a positive whole number', () => {
    expect(() => cart.add({ sku: 'mug', unitPrice: 1200, quantity: 0.5 })).toThrowError(RangeError);
  });

  describe('with a discount', () => {
    it('applies it to the total, not the subtotal', () => {
      cart.add({ sku: 'lamp', unitPrice: 5000, quantity: 2 });
      cart.applyDiscount(10);
      expect(cart.subtotal).toBe(10000);
      expect(cart.total).toBe(9000);
    });

    xit('stacks a coupon on top of the discount (coupons are not built yet)', () => {
      cart.applyDiscount(10);
    });
  });
});
