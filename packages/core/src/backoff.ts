import { wallClockNow } from './clock.js';
/**
 * 4xx statuses worth another attempt. 409 is here because the IETF Idempotency-Key draft
 * answers it while an earlier attempt with the same key is still being processed (a retry
 * after a client timeout).
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429]);

/** Every 5xx is retried too: the service, or a proxy or CDN in front of it, was briefly unable. */
export function isRetryable(status: number): boolean {
  return status >= 500 || RETRYABLE_STATUSES.has(status);
}

/** Longest Retry-After we wait for; longer ones are cut, and the flush deadline comes first anyway. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;

/**
 * Exponential backoff with equal jitter (docs/design.md, "Retries and the deadline"): spreads the retries of
 * many CI jobs hitting one service, so they do not come back in lockstep.
 * `attempt` is 1 for the first retry.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * `Retry-After` is either delay-seconds or an HTTP date. Returns milliseconds to wait,
 * or undefined when the header is absent or unreadable (then backoff applies).
 */
export function parseRetryAfter(
  header: string | undefined,
  now: number = wallClockNow(),
): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(MAX_RETRY_AFTER_MS, Math.ceil(Number(value) * 1000));
  // An HTTP date always names its weekday and month; this keeps "-5" from parsing as year -5.
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, date - now));
}
