import { backoffDelay, isRetryable, parseRetryAfter } from './backoff.js';
import type { Deadline } from './deadline.js';
import { HttpError, NetworkError, TestrunError, TlsError } from './errors.js';
import type { HttpClient, HttpResponse } from './http-client.js';

/** How one POST ended, after every retry it was allowed. */
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

/**
 * Sends one body, retrying network errors and retryable statuses with backoff or the
 * server's Retry-After, always with the same Idempotency-Key so a retry after a lost
 * response cannot store the body twice.
 */
export async function sendWithRetries(
  http: HttpClient,
  path: string,
  body: string,
  idempotencyKey: string,
  policy: RetryPolicy,
  deadline: Deadline,
): Promise<SendOutcome> {
  const url = http.baseUrl + path;
  for (let attempt = 0; ; attempt += 1) {
    if (deadline.passed) return gaveUp(`POST ${url} was not sent: the flush deadline (flushTimeout) passed`);
    const timeoutMs = Math.max(1, Math.min(policy.requestTimeout, deadline.remaining()));
    let waitMs: number | undefined;
    let failure: HttpError | NetworkError;
    try {
      const response = await http.post(path, body, { idempotencyKey, timeoutMs, signal: deadline.signal });
      const { status } = response;
      if (status >= 200 && status < 300) return { kind: 'ok', response };
      const refusal = new HttpError('POST', url, status, response.body, hintFor(status));
      if (status === 413) return { kind: 'too-large', error: refusal };
      if (status === 401 || status === 403) return { kind: 'auth', error: refusal };
      if (!isRetryable(status)) return { kind: 'rejected', error: refusal };
      failure = refusal;
      waitMs = parseRetryAfter(response.headers['retry-after']);
    } catch (error) {
      if (error instanceof TlsError) return { kind: 'tls', error };
      if (!(error instanceof NetworkError)) throw error;
      failure = error;
    }
    if (attempt >= policy.maxRetries) {
      return gaveUp(`${failure.message} (gave up after ${attempt + 1} attempts)`, failure);
    }
    const delay = waitMs ?? backoffDelay(attempt + 1, policy.random);
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
