import type { FaultHook } from '@testrun/server';
import { startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/delivery/deadline.js';
import {
  backoffDelay,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  sendWithRetries,
} from '../../src/delivery/send-with-retries.js';
import type { HttpError } from '../../src/errors.js';
import { HttpClient } from '../../src/http/client.js';

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

describe('sendWithRetries against the local server', () => {
  const POLICY = { maxRetries: 3, requestTimeout: 5_000, random: () => 0 };

  async function send(faults: FaultHook, policy = POLICY, deadline = new Deadline()) {
    const { server, url, apiKey } = await startTestServer({ faults });
    const http = new HttpClient({ baseUrl: url, apiKey, userAgent: 'test', env: {} });
    try {
      const outcome = await sendWithRetries(http, '/api/v1/runs', RUN, 'key-1', policy, deadline);
      return { outcome, attempts: server.requests };
    } finally {
      deadline.dispose();
      await http.close();
    }
  }

  it('retries a 503 with the same idempotency key until the service takes it', async () => {
    const { outcome, attempts } = await send((request) => (request.n < 2 ? { status: 503 } : undefined));
    expect(outcome.kind).toBe('ok');
    expect(attempts.map((attempt) => [attempt.status, attempt.idempotencyKey])).toEqual([
      [503, 'key-1'],
      [503, 'key-1'],
      [201, 'key-1'],
    ]);
  });

  it('gives up after maxRetries + 1 attempts, with the last failure as the cause', async () => {
    const { outcome, attempts } = await send(() => ({ status: 502 }), { ...POLICY, maxRetries: 2 });
    expect(attempts).toHaveLength(3);
    expect(outcome).toMatchObject({ kind: 'gave-up' });
    expect(outcome.kind === 'gave-up' && outcome.error.message).toMatch(
      /answered 502.*gave up after 3 attempts/,
    );
    expect(outcome.kind === 'gave-up' && (outcome.error.cause as HttpError).status).toBe(502);
  });

  it.each([
    [400, 'rejected'],
    [401, 'auth'],
    [403, 'auth'],
    [413, 'too-large'],
  ] as const)('answers a %i at once, without a retry, as %s', async (status, kind) => {
    const { outcome, attempts } = await send(() => ({ status }));
    expect(outcome.kind).toBe(kind);
    expect(attempts).toHaveLength(1);
  });

  it('sends nothing once the deadline has passed, and waits for no retry that would end after it', async () => {
    const passed = new Deadline();
    passed.expire();
    const before = await send(() => undefined, POLICY, passed);
    expect(before.outcome.kind).toBe('gave-up');
    expect(before.attempts).toEqual([]);

    const near = new Deadline();
    near.start(1_000);
    const retryAfter = await send(() => ({ status: 429, headers: { 'retry-after': '30' } }), POLICY, near);
    expect(retryAfter.outcome.kind === 'gave-up' && retryAfter.outcome.error.message).toMatch(
      /the next attempt would fall after the flush deadline/,
    );
    expect(retryAfter.attempts).toHaveLength(1);
  });
});

const RUN = JSON.stringify({ project: 'p', framework: 'vitest', tags: [] });
