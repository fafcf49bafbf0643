import diagnostics from 'node:diagnostics_channel';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import type { Dispatcher, request as Request } from 'undici';
import { setImmediate } from '../clock.js';
import type { TlsMaterial } from '../options/tls-material.js';
import { bodyLimit, flattenHeaders, readBounded } from './answer.js';
import { IDLE_CONNECTION_MS, ReusedConnectionClosed } from './reused-connection.js';
import {
  bodyLength,
  isFileBody,
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
  private readonly sockets = new SocketNotes();

  constructor(proxy: string, tls: TlsMaterial | undefined) {
    this.undici = import('undici').then(({ ProxyAgent, request }) => ({
      request,
      // `requestTls`: the service's TLS inside the tunnel; `proxyTls`: an https proxy's own.
      // undici closes an idle connection after keepAliveTimeout, or sooner as the server's
      // `Keep-Alive: timeout=N` says (less its own margin).
      dispatcher: new ProxyAgent({
        uri: proxy,
        requestTls: tls,
        proxyTls: tls,
        keepAliveTimeout: IDLE_CONNECTION_MS,
      }),
    }));
    // Nothing may reject unheard before the first request: Vitest fails a run on that.
    this.undici.catch(() => {});
  }

  async send(
    url: URL,
    { method = 'POST', headers, body, signal }: TransportRequest,
  ): Promise<TransportResponse> {
    const { request, dispatcher } = await this.undici;
    try {
      const sent = isFileBody(body)
        ? {
            body: fs.createReadStream(body.path),
            headers: { ...headers, 'content-length': String(bodyLength(body)) },
          }
        : { body, headers };
      const response = await request(url, { method, ...sent, signal, dispatcher });
      const text = await readBounded(response.body, bodyLimit(response.statusCode));
      // undici hands the connection back to its pool a turn of the event loop after the
      // body ends: waiting that turn lets the next request reuse it instead of opening another.
      await new Promise((resolve) => setImmediate(resolve));
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body: text };
    } catch (error) {
      const alert = this.sockets.alertBehind(error);
      if (alert) throw alert;
      throw this.sockets.wasReused(error) && !signal.aborted ? ReusedConnectionClosed.from(error) : error;
    }
  }

  async close(): Promise<void> {
    this.sockets.dispose();
    await this.undici.then(
      ({ dispatcher }) => dispatcher.destroy().catch(() => {}),
      () => {},
    );
  }
}

/** How many recent sockets are remembered: only the failure being reported right now is looked up. */
const KEPT = 32;

type SocketInfo = { localAddress?: string; localPort?: number };

/**
 * What undici does not tell about the socket a request failed on, noted from its diagnostics
 * channels by the socket's local address (its errors carry that address, not the socket):
 * - In TLS 1.3 a server refuses a client certificate after the client thinks the handshake
 *   is done; the socket reports the alert (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED), but
 *   undici only "other side closed". Each socket's first TLS error is noted, so the failed
 *   request can be told apart from a dropped connection, as the node:http transport tells it.
 * - Whether the request was not the socket's first: a reused kept-alive connection that the
 *   server closed under it (reused-connection.ts).
 */
class SocketNotes {
  private readonly alerts = new Map<string, NodeJS.ErrnoException>();
  private readonly requestsSent = new Map<string, number>();
  private readonly onConnected = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    socket?.prependOnceListener('error', (error: NodeJS.ErrnoException) => {
      if (error.code?.startsWith('ERR_SSL_')) remember(this.alerts, keyOf(socket), error);
    });
  };
  private readonly onSendHeaders = (message: unknown) => {
    const { socket, request } = message as { socket?: Socket; request?: { method?: string } };
    // A tunnel's CONNECT goes on the same socket as the first request through it.
    if (socket && request?.method !== 'CONNECT')
      remember(this.requestsSent, keyOf(socket), (this.requestsSent.get(keyOf(socket)) ?? 0) + 1);
  };

  constructor() {
    diagnostics.subscribe('undici:client:connected', this.onConnected);
    diagnostics.subscribe('undici:client:sendHeaders', this.onSendHeaders);
  }

  /** The TLS error behind an undici "other side closed", if its socket noted one. */
  alertBehind(error: unknown): NodeJS.ErrnoException | undefined {
    const socket = failedSocket(error);
    if ((error as { code?: unknown }).code !== 'UND_ERR_SOCKET' || !socket) return undefined;
    return this.alerts.get(keyOf(socket));
  }

  /** Whether the request that failed was sent on a socket that had carried an earlier one. */
  wasReused(error: unknown): boolean {
    const socket = failedSocket(error);
    return socket !== undefined && (this.requestsSent.get(keyOf(socket)) ?? 0) > 1;
  }

  dispose(): void {
    diagnostics.unsubscribe('undici:client:connected', this.onConnected);
    diagnostics.unsubscribe('undici:client:sendHeaders', this.onSendHeaders);
  }
}

function failedSocket(error: unknown): SocketInfo | undefined {
  return (error as { socket?: SocketInfo } | undefined)?.socket;
}

function keyOf(socket: SocketInfo): string {
  return `${socket.localAddress}:${socket.localPort}`;
}

function remember<T>(notes: Map<string, T>, key: string, value: T): void {
  notes.delete(key);
  notes.set(key, value);
  if (notes.size > KEPT) notes.delete(notes.keys().next().value!);
}
