import { describe, expect, it } from 'vitest';
import { formatMs } from '../../src/output/summary.js';

describe('formatMs', () => {
  it.each([
    [0, '0 ms'],
    [0.4, '0 ms'],
    [12.7, '13 ms'],
    [999.4, '999 ms'],
    [999.6, '1.00 s'],
    [2978.8710640000004, '2.98 s'],
    [10_000, '10 s'],
    [75_400, '75 s'],
  ])('prints %d ms as %s', (ms, text) => {
    expect(formatMs(ms)).toBe(text);
  });

  it('prints what is not a number as it is, with its unit', () => {
    expect(formatMs(Number.NaN)).toBe('NaN ms');
    expect(formatMs(Number.POSITIVE_INFINITY)).toBe('Infinity ms');
  });
});
