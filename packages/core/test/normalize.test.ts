import { describe, expect, it } from 'vitest';
import { DEFAULT_STATUS_MAP } from '../src/config.js';
import { EMPTY_NAME, MAX_NAME_LENGTH, toDuration, toName, toResult } from '../src/normalize.js';

describe('toName', () => {
  it('keeps unicode and emoji as they are', () => {
    expect(toName('größe 🚀 日本語')).toBe('größe 🚀 日本語');
  });

  it('turns NUL, newlines and tabs into spaces', () => {
    expect(toName('a\u0000b\nc\r\nd\te')).toBe('a b c  d e');
  });

  it('gives empty and blank names a visible placeholder', () => {
    expect(toName('')).toBe(EMPTY_NAME);
    expect(toName('   ')).toBe(EMPTY_NAME);
    expect(toName(undefined)).toBe(EMPTY_NAME);
    expect(toName(null)).toBe(EMPTY_NAME);
  });

  it('cuts a 10 KB name to the limit without splitting an emoji', () => {
    const long = '🚀'.repeat(10_000);
    const name = toName(long);
    expect(Array.from(name)).toHaveLength(MAX_NAME_LENGTH);
    expect(name.endsWith('🚀…')).toBe(true);
    expect(name.isWellFormed()).toBe(true);
  });

  it('replaces lone surrogates so the JSON is valid UTF-8', () => {
    expect(toName('a\uD800b').isWellFormed()).toBe(true);
  });

  it('stringifies non-string names', () => {
    expect(toName(42)).toBe('42');
  });

  it('normalizes to NFC so the same title compares equal', () => {
    expect(toName('e\u0301')).toBe('\u00e9');
  });
});

describe('toDuration', () => {
  it.each([Number.NaN, -5, Number.POSITIVE_INFINITY, undefined, '12', null])('turns %s into 0', (value) => {
    expect(toDuration(value, 'ms')).toBe(0);
  });

  it('keeps milliseconds by default and converts to seconds on request', () => {
    expect(toDuration(1234.5678, 'ms')).toBe(1234.568);
    expect(toDuration(1500, 's')).toBe(1.5);
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

describe('toName on plain ASCII', () => {
  it('returns short printable names unchanged and still cleans the rest', () => {
    expect(toName('cart > adds tax')).toBe('cart > adds tax');
    expect(toName('a'.repeat(MAX_NAME_LENGTH))).toHaveLength(MAX_NAME_LENGTH);
    expect(Array.from(toName('a'.repeat(MAX_NAME_LENGTH + 1)))).toHaveLength(MAX_NAME_LENGTH);
    expect(toName('a\u007fb')).toBe('a b');
  });
});
