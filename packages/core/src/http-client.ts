import type { Dispatcher } from 'undici';
import { clearTimeout, monotonicNow, setTimeout } from './clock.js';
import { NetworkError, TlsError } from './errors.js';
import { redact, secretPattern } from './redact.js';
import { TlsAlerts } from './tls-alerts.js';
import { describeTlsFailure } from './tls-failure.js';
import type { TlsMaterial } from './tls-material.js';
import { loadUndiciParts, type UndiciParts } from './undici-parts.js';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | undefined>;
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
}

export interface PostOptions {
  idempotencyKey: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * POSTs JSON to the service over one keep-alive connection pool per session, through the
 * proxy named in HTTPS_PROXY/HTTP_PROXY unless NO_PROXY says otherwise.
 */
export class HttpClient {
  readonly baseUrl: string;
  requests = 0;
  /**
   * undici is loaded when the client is made (at the start of the run), not when the
   * reporter is imported: its ~100 ms of module loading then overlaps test collection
   * instead of delaying the framework's start.
   */
  private readonly undici: Promise<Undici>;
  private readonly headers: Record<string, string>;
  private readonly keyPattern: RegExp | undefined;
  private readonly tlsAlerts = new TlsAlerts();

  constructor(private readonly init: HttpClientInit) {
    this.baseUrl = init.baseUrl;
    this.keyPattern = secretPattern([init.apiKey]);
    this.undici = loadUndici(init.env, init.tls, this.tlsAlerts);
    // Nothing may reject unheard before the first request: Vitest fails a run on that.
    this.undici.catch(() => {});
    this.headers = {
      authorization: `Bearer ${init.apiKey}`,
      'content-type': 'application/json',
      'user-agent': init.userAgent,
    };
  }

  /**
   * One attempt. Its timeout is a timer held here and cleared when the attempt settles:
   * `AbortSignal.timeout()` can be garbage-collected before it fires on Node 20, which
   * left a hung request waiting for the flush deadline instead of being retried.
   */
  async post(path: string, body: string, options: PostOptions): Promise<HttpResponse> {
    const url = this.baseUrl + path;
    const started = monotonicNow();
    this.requests += 1;
    const attempt = new AbortController();
    const timer = setTimeout(() => attempt.abort(), options.timeoutMs);
    timer.unref();
    const stop = () => attempt.abort();
    options.signal.addEventListener('abort', stop, { once: true });
    if (options.signal.aborted) stop();
    try {
      const { request, dispatcher } = await this.undici;
      const response = await request(dispatcher, url, {
        method: 'POST',
        headers: { ...this.headers, 'idempotency-key': options.idempotencyKey },
        body,
        signal: attempt.signal,
      });
      // A service that echoes the Authorization header must not put the key into our errors.
      const text = redact(await response.body.text(), this.keyPattern);
      this.log(`POST ${url} → ${response.statusCode} in ${elapsed(started)}`);
      return { status: response.statusCode, headers: flatten(response.headers), body: text };
    } catch (error) {
      const tlsCode = this.tlsAlerts.alertBehind(error) ?? errorCode(error);
      const tlsProblem = !attempt.signal.aborted && tlsCode ? describeTlsFailure(tlsCode) : undefined;
      if (tlsProblem) {
        this.log(`POST ${url} failed after ${elapsed(started)}: ${tlsCode}`);
        throw new TlsError(`POST ${url} failed: ${tlsProblem}`, tlsCode!, error);
      }
      const reason = attempt.signal.aborted
        ? options.signal.aborted
          ? 'stopped at the flush deadline'
          : `no answer within requestTimeout (${options.timeoutMs} ms)`
        : redact(describeNetworkError(error), this.keyPattern);
      this.log(`POST ${url} failed after ${elapsed(started)}: ${reason}`);
      throw new NetworkError(`POST ${url} failed: ${reason}`, error);
    } finally {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', stop);
    }
  }

  /** Closes idle keep-alive sockets so the test process can exit at once. */
  async close(): Promise<void> {
    await this.undici.then(
      ({ dispatcher }) => dispatcher.destroy().catch(() => {}),
      () => {},
    );
  }

  private log(line: string): void {
    this.init.onAttempt?.(line);
  }
}

interface Undici {
  request: UndiciParts['request'];
  dispatcher: Dispatcher;
}

/** One keep-alive pool per session; through the proxy named in the environment, if any. */
async function loadUndici(
  env: NodeJS.ProcessEnv,
  tls: TlsMaterial | undefined,
  alerts: TlsAlerts,
): Promise<Undici> {
  const { Agent, EnvHttpProxyAgent, buildConnector, request } = await loadUndiciParts();
  // `connect` makes a direct connection; `requestTls` is the TLS of the service through a
  // proxy tunnel (there undici makes the connection, so a TLS 1.3 alert stays "other side closed").
  const options = {
    keepAliveTimeout: 10_000,
    connections: 16,
    connect: alerts.connector(buildConnector, { ...tls }),
    requestTls: tls,
  };
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  if (!httpProxy && !httpsProxy) return { request, dispatcher: new Agent(options) };
  const dispatcher = new (EnvHttpProxyAgent())({
    ...options,
    httpProxy,
    httpsProxy: httpsProxy ?? httpProxy,
    noProxy: env.NO_PROXY ?? env.no_proxy,
  });
  return { request, dispatcher };
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = errorCode(error);
  return code ? `${code} (${error.message})` : error.message;
}

/** The system or OpenSSL code of a failed request, on the error or its cause. */
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
  return `${Math.round(monotonicNow() - started)} ms`;
}
