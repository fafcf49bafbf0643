import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS_MAP } from '../../src/options/option-specs.js';
import { toStatus } from '../../src/options/status-text.js';
import { formatCount } from '../../src/output/summary.js';
import { MAX_DURATION_MS, toDuration, toDurationIn, toResult } from '../../src/results/normalize.js';

describe('toDuration', () => {
  it.each([Number.NaN, -5, Number.POSITIVE_INFINITY, undefined, '12', null])('turns %s into 0', (value) => {
    expect(toDuration(value, 'ms')).toBe(0);
  });

  it('keeps milliseconds by default and converts to seconds on request', () => {
    expect(toDuration(1234.5678, 'ms')).toBe(1234.568);
    expect(toDuration(1500, 's')).toBe(1.5);
  });

  // A duration no test has (a TAP point's `duration_ms: 1e308`) would make a service refuse its whole batch.
  it('sends a duration above 2^31 - 1 ms (24.8 days) as 0, and one up to it as it is', () => {
    expect(MAX_DURATION_MS).toBe(2_147_483_647);
    expect(toDuration(1e308, 'ms')).toBe(0);
    expect(toDuration(MAX_DURATION_MS + 1, 's')).toBe(0);
    expect(toDuration(MAX_DURATION_MS, 'ms')).toBe(MAX_DURATION_MS);
    expect(toDuration(MAX_DURATION_MS, 's')).toBe(2_147_483.647);
  });

  it('keeps a mapResult duration in the configured unit, within the same bound', () => {
    expect(toDurationIn(2.5, 's')).toBe(2.5);
    expect(toDurationIn(2_147_484, 's')).toBe(0);
    expect(toDurationIn(1e308, 'ms')).toBe(0);
    expect(toDurationIn('12', 'ms')).toBe(0);
  });
});

describe('toStatus', () => {
  it('takes a non-empty string every service can store, nothing else', () => {
    expect(toStatus('pending')).toBe('pending');
    for (const bad of ['', '  ', 'a\u0000b', 'a\ud800', 3, undefined]) expect(toStatus(bad)).toBeUndefined();
  });
});

describe('toResult', () => {
  it('sends exactly the four fields of the spec with the mapped status', () => {
    const raw = { testSuite: 'a.test.js', testCase: 'x', status: 'todo' as const, duration: 3, extra: 1 };
    expect(toResult(raw, { statusMap: DEFAULT_STATUS_MAP, durationUnit: 'ms' })).toEqual({
      testSuite: 'a.test.js',
      testCase: 'x',
      status: 'skipped',
      duration: 3,
    });
  });

  it('applies a custom status map', () => {
    const statusMap = { ...DEFAULT_STATUS_MAP, todo: 'pending', failed: 'broken' };
    const options = { statusMap, durationUnit: 'ms' as const };
    expect(toResult({ testSuite: 's', testCase: 'c', status: 'todo' }, options).status).toBe('pending');
    expect(toResult({ testSuite: 's', testCase: 'c', status: 'failed' }, options).status).toBe('broken');
  });
});

describe('formatCount', () => {
  it('separates thousands as en-US does', () => {
    for (const value of [0, 7, 999, 1000, 12_345, 1_234_567, 100_000_000]) {
      expect(formatCount(value)).toBe(value.toLocaleString('en-US'));
    }
  });
});
