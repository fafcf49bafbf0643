/**
 * Statuses worth another attempt: the service or something in front of it was briefly
 * unable. 409 is here too: the IETF Idempotency-Key draft answers it while an earlier
 * attempt with the same key is still being processed (a retry after a client timeout).
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504]);

const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;

/**
 * Exponential backoff with full jitter (AWS's recommendation): spreads the retries of
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
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date always names its weekday and month; this keeps "-5" from parsing as year -5.
  const date = /[a-z]{3}/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
