import {
  clearTimeout,
  monotonicNow,
  onRealTaskQueuesRestored,
  setTimeout,
  untilRealTaskQueues,
} from '../clock.js';
import { NetworkError, TlsError } from '../errors.js';
import type { TlsMaterial } from '../options/tls-material.js';
import { redact, type SecretPattern, secretPattern } from '../output/redact.js';
import { formatMs } from '../output/summary.js';
import { openTransport } from './open-transport.js';
import { ReusedConnectionClosed } from './reused-connection.js';
import { describeTlsFailure } from './tls-failure.js';
import type { RequestBody, Transport } from './transport.js';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
  /** The answer's text, at most its first MAX_*_BODY_BYTES, with the key redacted. */
  body: string;
}

export interface HttpClientInit {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  env: NodeJS.ProcessEnv;
  /** A private CA and a client certificate, when the options name them. */
  tls?: TlsMaterial | undefined;
  /** Called once per attempt, for debug logging. Never sees the API key. */
  onAttempt?: (line: string) => void;
  /** How the bytes travel; by default chosen from the environment (transport.ts). */
  transport?: Transport;
  /** Sent with every request besides the spec's (the shard a reporter's results come from). */
  headers?: Record<string, string> | undefined;
}

export interface SendOptions {
  /** POST when absent. */
  method?: string;
  /** `application/json` when absent: an uploaded file's bytes go as `application/octet-stream`. */
  contentType?: string;
  idempotencyKey: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * Sends JSON to the service (POST, or what completing a run asks for), one attempt at a time: the headers the spec asks for, a
 * timeout held here, TLS failures told from dropped connections, the key kept out of
 * everything it says, and a line per attempt for debug logging. The transport moves the
 * bytes (transport.ts).
 */
export class HttpClient {
  readonly baseUrl: string;
  requests = 0;
  private readonly transport: Transport;
  private readonly headers: Record<string, string>;
  private readonly keyPattern: SecretPattern | undefined;

  constructor(private readonly init: HttpClientInit) {
    this.baseUrl = init.baseUrl;
    this.keyPattern = secretPattern([init.apiKey]);
    this.transport = init.transport ?? openTransport(init.baseUrl, init.env, init.tls);
    this.headers = {
      ...init.headers,
      authorization: `Bearer ${init.apiKey}`,
      'content-type': 'application/json',
      'user-agent': init.userAgent,
    };
  }

  /** The address of `path` as it may be printed or kept in an error: a key in the base URL's path redacted. */
  displayUrl(path: string): string {
    return redact(this.baseUrl + path, this.keyPattern);
  }

  /**
   * One attempt. Its timeout is a timer held here and cleared when the attempt settles:
   * `AbortSignal.timeout()` can be garbage-collected before it fires on Node 20, which
   * left a hung request waiting for the flush deadline instead of being retried.
   */
  async send(path: string, body: RequestBody, options: SendOptions): Promise<HttpResponse> {
    const method = options.method ?? 'POST';
    const shownRequest = `${method} ${this.displayUrl(path)}`;
    // While a test holds fake task queues, Node's HTTP stack cannot complete a request.
    await untilRealTaskQueues(options.signal);
    const started = monotonicNow();
    this.requests += 1;
    const attempt = new AbortController();
    const timer = setTimeout(() => attempt.abort(), options.timeoutMs);
    timer.unref();
    const stop = () => attempt.abort();
    options.signal.addEventListener('abort', stop, { once: true });
    if (options.signal.aborted) stop();
    const unstrand = onRealTaskQueuesRestored(() => attempt.abort(STRANDED));
    try {
      const response = await settledByAbort(
        this.transport.send(new URL(this.baseUrl + path), {
          method,
          headers: {
            ...this.headers,
            ...(options.contentType ? { 'content-type': options.contentType } : {}),
            'idempotency-key': options.idempotencyKey,
          },
          body,
          signal: attempt.signal,
        }),
        attempt.signal,
      );
      this.log(`${shownRequest} → ${response.status} in ${elapsed(started)}`);
      // A service that echoes the Authorization header must not put the key into our errors.
      return { ...response, body: redact(response.body, this.keyPattern) };
    } catch (error) {
      const tlsCode = errorCode(error);
      const tlsProblem = !attempt.signal.aborted && tlsCode ? describeTlsFailure(tlsCode) : undefined;
      if (tlsProblem) {
        this.log(`${shownRequest} failed after ${elapsed(started)}: ${tlsCode}`);
        throw new TlsError(`${shownRequest} failed: ${tlsProblem}`, tlsCode!, error);
      }
      if (attempt.signal.reason === STRANDED) {
        this.log(`${shownRequest} abandoned after ${elapsed(started)}: ${STRANDED.message}`);
        throw new NetworkError(`${shownRequest}: ${STRANDED.message}`, error, { retryAtOnce: true });
      }
      if (error instanceof ReusedConnectionClosed && !attempt.signal.aborted) {
        this.log(`${shownRequest} failed after ${elapsed(started)}: ${error.message}`);
        throw new NetworkError(`${shownRequest}: ${error.message}; sent again at once on a new one`, error, {
          retryAtOnce: true,
        });
      }
      const reason = attempt.signal.aborted
        ? options.signal.aborted
          ? 'stopped at the flush deadline'
          : `no answer within requestTimeout (${formatMs(options.timeoutMs)})`
        : redact(describeNetworkError(error), this.keyPattern);
      this.log(`${shownRequest} failed after ${elapsed(started)}: ${reason}`);
      throw new NetworkError(`${shownRequest} failed: ${reason}`, error);
    } finally {
      clearTimeout(timer);
      unstrand();
      options.signal.removeEventListener('abort', stop);
    }
  }

  /** Closes idle keep-alive connections so the test process can exit at once. */
  close(): Promise<void> {
    return this.transport.close().catch(() => {});
  }

  private log(line: string): void {
    this.init.onAttempt?.(line);
  }
}

/**
 * The transport's answer, or a rejection as soon as `signal` aborts: an attempt ends at its
 * timeout even when the transport's own abort never gets through (Node's HTTP stack reports
 * it through `process.nextTick`, which a test may have faked).
 */
function settledByAbort<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) answer.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason ?? new Error('aborted'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** Why an attempt in flight while a test faked the task queues is abandoned when the real ones come back (clock.ts). */
const STRANDED = new Error(
  'it was in flight while a test faked process.nextTick, so Node could not finish it; sent again at once',
);

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = errorCode(error);
  return code ? `${code} (${error.message})` : error.message;
}

/** The system or OpenSSL code of a failed request, on the error or its cause (undici wraps it). */
function errorCode(error: unknown): string | undefined {
  const own = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  const code =
    typeof own === 'string' && own.startsWith('UND_ERR') && typeof cause === 'string'
      ? cause
      : (own ?? cause);
  return typeof code === 'string' ? code : undefined;
}

function elapsed(started: number): string {
  return formatMs(monotonicNow() - started);
}
