const assert = require('node:assert/strict');
const { Given, Then, When } = require('@cucumber/cucumber');
const { Cart } = require('../../src/cart');

Given('an empty cart', function () {
  this.cart = new Cart();
});

When('I add {int} of {string} at {int} cents', function (quantity, sku, unitPrice) {
  this.cart.add({ sku, quantity, unitPrice });
});

When('a discount of {int} % applies', function (percent) {
  this.cart.applyDiscount(percent);
});

Then('the cart holds {int} items', function (count) {
  assert.equal(this.cart.itemCount, count);
});

Then('the subtotal is {int} cents', function (cents) {
  assert.equal(this.cart.subtotal, cents);
});

Then('the total is {int} cents', function (cents) {
  assert.equal(this.cart.total, cents);
});

Then('adding {int} of {string} is refused', function (quantity, sku) {
  assert.throws(() => this.cart.add({ sku, quantity, unitPrice: 100 }), RangeError);
});
