// Money is handled in integer cents, so sums never drift.

function applyDiscount(price, percent) {
  if (percent < 0 || percent > 100) throw new RangeError(`discount must be 0–100 %, got ${percent}`);
  return Math.round((price * (100 - percent)) / 100);
}

function addVat(net, ratePercent) {
  return Math.round(net * (1 + ratePercent / 100));
}

function formatPrice(price, currency = 'EUR') {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(price / 100);
}

module.exports = { applyDiscount, addVat, formatPrice };
