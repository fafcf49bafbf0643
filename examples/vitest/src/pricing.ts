/** Money is handled in integer cents, so sums never drift. */
export type Cents = number;

export function applyDiscount(price: Cents, percent: number): Cents {
  if (percent < 0 || percent > 100) throw new RangeError(`discount must be 0–100 %, got ${percent}`);
  return Math.round((price * (100 - percent)) / 100);
}

export function addVat(net: Cents, ratePercent: number): Cents {
  return Math.round(net * (1 + ratePercent / 100));
}

export function formatPrice(price: Cents, currency = 'EUR'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(price / 100);
}
