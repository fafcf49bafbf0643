/** Adds amounts given in cents, so no rounding error creeps in. */
function sum(...cents) {
  return cents.reduce((total, amount) => total + amount, 0);
}

/** Formats cents as a price: 1234 → "12.34". */
function format(cents) {
  return (cents / 100).toFixed(2);
}

module.exports = { format, sum };
