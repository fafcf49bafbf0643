import { wallClockNow } from '../clock.js';
import { HttpError, NetworkError, TestrunError, TlsError } from '../errors.js';
import type { HttpClient, HttpResponse } from '../http/client.js';
import type { RequestBody } from '../http/transport.js';
import type { Deadline } from './deadline.js';

/** How one request ended, after every retry it was allowed. */
export type SendOutcome =
  | { kind: 'ok'; response: HttpResponse }
  /** 413: the body is too large; the caller may split it. */
  | { kind: 'too-large'; error: HttpError }
  /** 401/403: the key is refused; nothing more should be sent. */
  | { kind: 'auth'; error: HttpError }
  /** The TLS handshake failed: nothing will get through until the certificates change. */
  | { kind: 'tls'; error: TlsError }
  /** Any other 4xx: sending the same body again will not help. */
  | { kind: 'rejected'; error: HttpError }
  /** Retries used up, or the flush deadline came first. */
  | { kind: 'gave-up'; error: TestrunError };

export type SendFailure = Exclude<SendOutcome, { kind: 'ok' }>;

export interface RetryPolicy {
  maxRetries: number;
  requestTimeout: number;
  random?: () => number;
}

export interface SendOptions {
  /** POST when absent. */
  method?: string;
  /** `application/json` when absent. */
  contentType?: string;
  /** Statuses otherwise retried that this request takes as a refusal. */
  final?: ReadonlySet<number>;
}

const NONE: ReadonlySet<number> = new Set();

/**
 * Sends one body, retrying network errors and retryable statuses with backoff or the
 * server's Retry-After, always with the same Idempotency-Key so a retry after a lost
 * response cannot store the body twice.
 */
export async function sendWithRetries(
  http: HttpClient,
  path: string,
  body: RequestBody,
  idempotencyKey: string,
  policy: RetryPolicy,
  deadline: Deadline,
  { method = 'POST', contentType, final = NONE }: SendOptions = {},
): Promise<SendOutcome> {
  const url = http.displayUrl(path);
  let retriedAtOnce = false;
  // Attempts after the first that the retry budget paid for.
  let retries = 0;
  for (;;) {
    if (deadline.passed)
      return gaveUp(`${method} ${url} was not sent: the flush deadline (flushTimeout) passed`);
    const timeoutMs = Math.max(1, Math.min(policy.requestTimeout, deadline.remaining()));
    let waitMs: number | undefined;
    let failure: HttpError | NetworkError;
    try {
      const response = await http.send(path, body, {
        method,
        contentType,
        idempotencyKey,
        timeoutMs,
        signal: deadline.signal,
      });
      const { status } = response;
      if (status >= 200 && status < 300) return { kind: 'ok', response };
      const refusal = new HttpError(method, url, status, response.body, hintFor(status));
      if (status === 413) return { kind: 'too-large', error: refusal };
      if (status === 401 || status === 403) return { kind: 'auth', error: refusal };
      if (!isRetryable(status) || final.has(status)) return { kind: 'rejected', error: refusal };
      failure = refusal;
      waitMs = parseRetryAfter(response.headers['retry-after']);
    } catch (error) {
      if (error instanceof TlsError) return { kind: 'tls', error };
      if (!(error instanceof NetworkError)) throw error;
      failure = error;
    }
    // Once per send, and outside the retry budget: a closed idle connection or a stranded
    // attempt says nothing about the service, so it costs neither a backoff nor a retry.
    if (failure instanceof NetworkError && failure.retryAtOnce && !retriedAtOnce) {
      retriedAtOnce = true;
      continue;
    }
    if (retries >= policy.maxRetries) {
      return gaveUp(`${failure.message} (gave up after ${retries + 1} attempts)`, failure);
    }
    retries += 1;
    const delay = waitMs ?? backoffDelay(retries, policy.random);
    if (!(await deadline.sleep(delay))) {
      return gaveUp(`${failure.message} (the next attempt would fall after the flush deadline)`, failure);
    }
  }
}

function gaveUp(message: string, cause?: Error): SendOutcome {
  return { kind: 'gave-up', error: new TestrunError('TESTRUN_GAVE_UP', message, { cause }) };
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return 'Check TESTRUN_API_KEY (or the apiKey option)';
  if (status === 404) return 'The run does not exist: check TESTRUN_RUN_ID or the baseUrl';
  return '';
}

// Backoff and Retry-After (docs/design/delivery.md#retries-and-the-deadline).

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
 * Exponential backoff with equal jitter (docs/design/delivery.md#retries-and-the-deadline): spreads
 * the retries of many CI jobs hitting one service, so they do not come back in lockstep. `attempt`
 * is 1 for the first retry.
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
