const { format, sum } = require('./money.js');

describe('money', () => {
  it('sums cents', () => {
    expect(sum(199, 1)).toBe(200);
  });

  it('formats cents as a price', () => {
    expect(format(1234)).toBe('12.34');
  });
});
