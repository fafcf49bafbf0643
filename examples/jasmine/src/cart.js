const { applyDiscount } = require('./pricing');

/** A shopping cart: line items merged by SKU, an optional percentage discount. */
class Cart {
  #items = new Map();
  #discountPercent = 0;

  add(item) {
    if (!Number.isInteger(item.quantity) || item.quantity <= 0) {
      throw new RangeError(`quantity must be a positive whole number, got ${item.quantity}`);
    }
    const existing = this.#items.get(item.sku);
    this.#items.set(
      item.sku,
      existing ? { ...existing, quantity: existing.quantity + item.quantity } : { ...item },
    );
  }

  remove(sku) {
    this.#items.delete(sku);
  }

  applyDiscount(percent) {
    this.#discountPercent = percent;
  }

  get itemCount() {
    return [...this.#items.values()].reduce((count, item) => count + item.quantity, 0);
  }

  get subtotal() {
    return [...this.#items.values()].reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  }

  get total() {
    return applyDiscount(this.subtotal, this.#discountPercent);
  }
}

module.exports = { Cart };
