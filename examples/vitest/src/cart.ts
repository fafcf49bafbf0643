import { applyDiscount, type Cents } from './pricing.js';

export interface LineItem {
  sku: string;
  unitPrice: Cents;
  quantity: number;
}

/** A shopping cart: line items merged by SKU, an optional percentage discount. */
export class Cart {
  private readonly items = new Map<string, LineItem>();
  private discountPercent = 0;

  add(item: LineItem): void {
    if (!Number.isInteger(item.quantity) || item.quantity <= 0) {
      throw new RangeError(`quantity must be a positive whole number, got ${item.quantity}`);
    }
    const existing = this.items.get(item.sku);
    this.items.set(
      item.sku,
      existing ? { ...existing, quantity: existing.quantity + item.quantity } : { ...item },
    );
  }

  remove(sku: string): void {
    this.items.delete(sku);
  }

  applyDiscount(percent: number): void {
    this.discountPercent = percent;
  }

  get itemCount(): number {
    return [...this.items.values()].reduce((count, item) => count + item.quantity, 0);
  }

  get subtotal(): Cents {
    return [...this.items.values()].reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  }

  get total(): Cents {
    return applyDiscount(this.subtotal, this.discountPercent);
  }
}
