import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { clearTimeout, setTimeout } from '../clock.js';
import type { TlsMaterial } from '../options/tls-material.js';
import {
  bodyLimit,
  flattenHeaders,
  readBounded,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

/** How long closing waits for sockets to say they closed. */
const CLOSE_WAIT_MS = 1000;

/**
 * A direct connection over node:http or node:https, kept alive for the whole session: one
 * connection carries every request of a run that sends one at a time. Its TLS is Node's own,
 * so a failed handshake, an alert after it (a refused client certificate in TLS 1.3) and an
 * untrusted certificate all arrive as the socket's error, with OpenSSL's code.
 */
export class NodeTransport implements Transport {
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;
  /** Every socket still open, so that closing waits until none is: the process can then exit at once. */
  private readonly sockets = new Set<Socket>();

  constructor(url: URL, tls: TlsMaterial | undefined) {
    const secure = url.protocol === 'https:';
    const options = { keepAlive: true, maxSockets: 16 };
    this.agent = secure ? new https.Agent({ ...options, ...tls }) : new http.Agent(options);
    this.request = secure ? https.request : http.request;
  }

  post(url: URL, { headers, body, signal }: TransportRequest): Promise<TransportResponse> {
    return new Promise((resolve, reject) => {
      const request = this.request(
        url,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          signal,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          readBounded(response, bodyLimit(status)).then(
            (text) => resolve({ status, headers: flattenHeaders(response.headers), body: text }),
            reject,
          );
        },
      );
      request.on('error', reject);
      request.on('socket', (socket) => {
        if (this.sockets.has(socket)) return;
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
      });
      request.end(body);
    });
  }

  /**
   * Destroys every socket and waits for them to close, at most CLOSE_WAIT_MS: a socket
   * whose request was abandoned while a test faked `process.nextTick` never says it closed.
   */
  async close(): Promise<void> {
    this.agent.destroy();
    const closing = [...this.sockets].map(
      (socket) => new Promise((resolve) => socket.once('close', resolve)),
    );
    for (const socket of this.sockets) socket.destroy();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(closing),
      new Promise((resolve) => {
        timer = setTimeout(resolve, CLOSE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }
}
