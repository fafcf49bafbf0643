import { describe, expect, it } from 'vitest';
import { absoluteTime, formatCount, formatDuration, relativeTime } from '../../src/pages/format.js';

describe('formatDuration (milliseconds in, a unit always out)', () => {
  it.each([
    [0, '0.0 ms'],
    [0.318, '0.3 ms'],
    [9.94, '9.9 ms'],
    [9.96, '10 ms'],
    [56.136999999999986, '56 ms'],
    [999.4, '999 ms'],
    [999.6, '1.0 s'],
    [1234, '1.2 s'],
    [59_940, '59.9 s'],
    [59_960, '1 min 0 s'],
    [184_000, '3 min 4 s'],
    [3_599_400, '59 min 59 s'],
    [3_599_600, '1 h 0 min'],
    [7_500_000, '2 h 5 min'],
    [86_370_000, '1 d 0 h'],
    [90_000_000, '1 d 1 h'],
    // The largest duration the API takes (MAX_DURATION), and a run's total of many such.
    [1e12, '11,574 d 2 h'],
    [5e15, '57,870,370 d 9 h'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('writes a dash for what is not a duration', () => {
    expect([Number.NaN, -1, Number.POSITIVE_INFINITY].map(formatDuration)).toEqual(['–', '–', '–']);
  });
});

describe('times and counts', () => {
  const created = '2026-11-22T03:27:32.612Z';
  const at = Date.parse(created);

  it('writes an ISO time as a readable UTC time', () => {
    expect(absoluteTime(created)).toBe('2026-11-22 03:27:32 UTC');
  });

  it.each([
    [3_000, 'just now'],
    [42_000, '42 s ago'],
    [5 * 60_000 + 59_000, '5 min ago'],
    [3 * 3_600_000, '3 h ago'],
    [26 * 3_600_000, '1 day ago'],
    [50 * 86_400_000, '50 days ago'],
  ])('a time %d ms ago reads %s', (ago, text) => {
    expect(relativeTime(created, at + ago)).toBe(text);
  });

  it('says nothing relative about a time that does not parse', () => {
    expect(relativeTime('yesterday', at)).toBe('');
  });

  it('groups thousands', () => {
    expect(formatCount(1_000_000)).toBe('1,000,000');
  });
});
