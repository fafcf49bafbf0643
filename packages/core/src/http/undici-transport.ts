import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { Dispatcher, request as Request } from 'undici';
import { setImmediate } from '../clock.js';
import type { TlsMaterial } from '../options/tls-material.js';
import {
  bodyLimit,
  flattenHeaders,
  readBounded,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

/**
 * Through an HTTP proxy, over undici's ProxyAgent: a CONNECT tunnel for https and http
 * alike, proxy credentials from the proxy's URL. undici is loaded only here, when the run
 * starts, so a run without a proxy never pays for it (bench figure 7b).
 */
export class UndiciTransport implements Transport {
  private readonly undici: Promise<{ request: typeof Request; dispatcher: Dispatcher }>;
  private readonly alerts = new TlsAlerts();

  constructor(proxy: string, tls: TlsMaterial | undefined) {
    this.undici = import('undici').then(({ ProxyAgent, request }) => ({
      request,
      // `requestTls`: the service's TLS inside the tunnel; `proxyTls`: an https proxy's own.
      dispatcher: new ProxyAgent({ uri: proxy, requestTls: tls, proxyTls: tls, keepAliveTimeout: 10_000 }),
    }));
    // Nothing may reject unheard before the first request: Vitest fails a run on that.
    this.undici.catch(() => {});
  }

  async post(url: URL, { headers, body, signal }: TransportRequest): Promise<TransportResponse> {
    const { request, dispatcher } = await this.undici;
    try {
      const response = await request(url, { method: 'POST', headers, body, signal, dispatcher });
      const text = await readBounded(response.body, bodyLimit(response.statusCode));
      // undici hands the connection back to its pool a turn of the event loop after the
      // body ends: waiting that turn lets the next request reuse it instead of opening another.
      await new Promise((resolve) => setImmediate(resolve));
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body: text };
    } catch (error) {
      throw this.alerts.behind(error) ?? error;
    }
  }

  async close(): Promise<void> {
    this.alerts.dispose();
    await this.undici.then(
      ({ dispatcher }) => dispatcher.destroy().catch(() => {}),
      () => {},
    );
  }
}

/** How many recent alerts are kept: only the failure being reported right now is looked up. */
const KEPT = 32;

/**
 * In TLS 1.3 a server refuses a client certificate after the client thinks the handshake is
 * done; the socket reports the alert (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED), but undici
 * only "other side closed". Every socket undici connects is announced on its diagnostics
 * channel; each one's first TLS error is noted by its local address, so the failed request
 * can be told apart from a dropped connection, as the node:http transport tells it.
 */
class TlsAlerts {
  private readonly alerts = new Map<string, NodeJS.ErrnoException>();
  private readonly onConnected = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    socket?.prependOnceListener('error', (error: NodeJS.ErrnoException) => {
      if (!error.code?.startsWith('ERR_SSL_')) return;
      this.alerts.set(`${socket.localAddress}:${socket.localPort}`, error);
      if (this.alerts.size > KEPT) this.alerts.delete(this.alerts.keys().next().value!);
    });
  };

  constructor() {
    diagnostics.subscribe('undici:client:connected', this.onConnected);
  }

  /** The TLS error behind an undici "other side closed", if its socket noted one. */
  behind(error: unknown): NodeJS.ErrnoException | undefined {
    const socket = (error as { socket?: { localAddress?: string; localPort?: number } }).socket;
    if ((error as { code?: unknown }).code !== 'UND_ERR_SOCKET' || !socket) return undefined;
    return this.alerts.get(`${socket.localAddress}:${socket.localPort}`);
  }

  dispose(): void {
    diagnostics.unsubscribe('undici:client:connected', this.onConnected);
  }
}
