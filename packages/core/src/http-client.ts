import type { Dispatcher } from 'undici';

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
  /** Called once per attempt, for debug logging. Never sees the API key. */
  onAttempt?: (line: string) => void;
}

export interface PostOptions {
  idempotencyKey: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Thrown for a network failure or a timeout: the request may or may not have reached the service. */
export class NetworkError extends Error {
  readonly code = 'TESTRUN_NETWORK';
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

  constructor(private readonly init: HttpClientInit) {
    this.baseUrl = init.baseUrl;
    this.undici = loadUndici(init.env);
    // Nothing may reject unheard before the first request: Vitest fails a run on that.
    this.undici.catch(() => {});
    this.headers = {
      authorization: `Bearer ${init.apiKey}`,
      'content-type': 'application/json',
      'user-agent': init.userAgent,
    };
  }

  async post(path: string, body: string, options: PostOptions): Promise<HttpResponse> {
    const url = this.baseUrl + path;
    const started = performance.now();
    this.requests += 1;
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
    try {
      const { request, dispatcher } = await this.undici;
      const response = await request(url, {
        method: 'POST',
        dispatcher,
        headers: { ...this.headers, 'idempotency-key': options.idempotencyKey },
        body,
        signal,
      });
      // A service that echoes the Authorization header must not put the key into our errors.
      const text = (await response.body.text()).split(this.init.apiKey).join('***');
      this.log(`POST ${url} → ${response.statusCode} in ${elapsed(started)}`);
      return { status: response.statusCode, headers: flatten(response.headers), body: text };
    } catch (error) {
      const reason = signal.aborted
        ? options.signal.aborted
          ? 'stopped at the flush deadline'
          : `no answer within requestTimeout (${options.timeoutMs} ms)`
        : describeNetworkError(error);
      this.log(`POST ${url} failed after ${elapsed(started)}: ${reason}`);
      throw new NetworkError(`POST ${url} failed: ${reason}`);
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
  request: typeof import('undici').request;
  dispatcher: Dispatcher;
}

/** One keep-alive pool per session; through the proxy named in the environment, if any. */
async function loadUndici(env: NodeJS.ProcessEnv): Promise<Undici> {
  const { Agent, EnvHttpProxyAgent, request } = await import('undici');
  const options = { keepAliveTimeout: 10_000, connections: 16 };
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  if (!httpProxy && !httpsProxy) return { request, dispatcher: new Agent(options) };
  const dispatcher = new EnvHttpProxyAgent({
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
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  return code ? `${code} (${error.message})` : error.message;
}

function elapsed(started: number): string {
  return `${Math.round(performance.now() - started)} ms`;
}
