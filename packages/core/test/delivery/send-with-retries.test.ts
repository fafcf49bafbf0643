import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  RETRYABLE_STATUSES,
} from '../../src/delivery/send-with-retries.js';

describe('backoffDelay', () => {
  it('doubles the ceiling with each attempt and jitters within its upper half', () => {
    expect(backoffDelay(1, () => 0)).toBe(125);
    expect(backoffDelay(1, () => 1)).toBe(250);
    expect(backoffDelay(2, () => 1)).toBe(500);
    expect(backoffDelay(3, () => 0.5)).toBe(750);
  });

  it('never waits more than 8 s however many attempts were made', () => {
    expect(backoffDelay(30, () => 1)).toBe(8000);
    expect(backoffDelay(1000, () => 1)).toBe(8000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:04 GMT', now)).toBe(4000);
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('returns undefined for a missing or unreadable header', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('isRetryable', () => {
  it('retries every 5xx and the transient 4xx: 408, 409 (key still in flight), 429', () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([408, 409, 429]);
    for (const status of [500, 502, 503, 504, 507, 520, 524, 599, 408, 409, 429])
      expect(isRetryable(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 415, 422]) expect(isRetryable(status)).toBe(false);
  });
});

describe('a very long Retry-After', () => {
  it('is cut to MAX_RETRY_AFTER_MS, in seconds and as a date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter('Sun, 22 Nov 2099 10:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
  });
});
