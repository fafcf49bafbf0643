import { Agent, type AgentOptions } from 'node:_http_agent';
import { ClientRequest } from 'node:_http_client';
import fs from 'node:fs';
import net from 'node:net';
import type tls from 'node:tls';
import { urlToHttpOptions } from 'node:url';
import { clearTimeout, setTimeout } from '../clock.js';
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

/** How long closing waits for sockets to say they closed. */
const CLOSE_WAIT_MS = 1000;

// Node's own client, from where test doubles cannot reach it
// (docs/design/what-tests-do-to-the-process.md#http-doubles). nock, MSW's interceptors and
// hand-written stubs replace `http.request`, `http.ClientRequest`, `https.request`, `http.Agent`,
// `net.connect` and `tls.connect` on the public modules — often in a setup file that runs before
// the reporter loads, so taking those values at load time would take the double. The classes come
// from the modules that define them, whose exports no double replaces, and sockets are opened with
// `net.Socket` as it was when core loaded, and `tls.connect` as it was when the session started:
// node:tls (and its half of OpenSSL's setup) is loaded only for an https service, costing a run
// over http nothing (docs/performance.md).
const Socket = net.Socket;

/**
 * A keep-alive agent that opens its own sockets: `Agent.prototype.createConnection` is what
 * mitm replaces, and https.Agent's looks `tls.connect` up at every call.
 */
class DirectAgent extends Agent {
  private readonly tlsConnect: typeof tls.connect | undefined;

  constructor(secure: boolean, options: AgentOptions & TlsMaterial) {
    super(options);
    if (secure) {
      Object.assign(this, { protocol: 'https:', defaultPort: 443 });
      this.tlsConnect = process.getBuiltinModule('node:tls').connect;
    }
  }

  override createConnection(options: net.NetConnectOpts & tls.ConnectionOptions): net.Socket {
    if (this.tlsConnect) return this.tlsConnect(options);
    return new Socket(options).connect(options);
  }
}

/**
 * A direct connection over Node's HTTP client, kept alive for the whole session: one
 * connection carries every request of a run that sends one at a time. Its TLS is Node's own,
 * so a failed handshake, an alert after it (a refused client certificate in TLS 1.3) and an
 * untrusted certificate all arrive as the socket's error, with OpenSSL's code.
 */
export class NodeTransport implements Transport {
  private readonly agent: DirectAgent;
  /** Every socket still open, so that closing waits until none is: the process can then exit at once. */
  private readonly sockets = new Set<net.Socket>();

  constructor(url: URL, tls: TlsMaterial | undefined) {
    // `timeout` is how long a free socket stays open: Node's agent closes it then, sooner when
    // the server's `Keep-Alive: timeout=N` says so (N s less 1), and not at all when N is 1.
    // A request in progress is not cut by it: requestTimeout is held by the client.
    this.agent = new DirectAgent(url.protocol === 'https:', {
      keepAlive: true,
      timeout: IDLE_CONNECTION_MS,
      maxSockets: 16,
      ...tls,
    });
  }

  send(url: URL, { method = 'POST', headers, body, signal }: TransportRequest): Promise<TransportResponse> {
    return new Promise((resolve, reject) => {
      let answered = false;
      const request = new ClientRequest(
        {
          ...urlToHttpOptions(url),
          method,
          agent: this.agent,
          headers: { ...headers, 'content-length': String(bodyLength(body)) },
          signal,
        },
        (response) => {
          answered = true;
          const status = response.statusCode ?? 0;
          readBounded(response, bodyLimit(status)).then(
            (text) => resolve({ status, headers: flattenHeaders(response.headers), body: text }),
            reject,
          );
        },
      );
      request.on('error', (error) => {
        if (!request.reusedSocket || answered || signal.aborted) return reject(error);
        // The other free sockets went idle as long ago: the next attempt takes a new one.
        this.dropFreeSockets();
        reject(ReusedConnectionClosed.from(error));
      });
      request.on('socket', (socket) => {
        if (this.sockets.has(socket)) return;
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
      });
      if (!isFileBody(body)) {
        request.end(body);
        return;
      }
      // A file goes as it is read; the request's end (answered, failed, aborted) closes it.
      const file = fs.createReadStream(body.path);
      file.once('error', (error) => request.destroy(error));
      request.once('close', () => file.destroy());
      file.pipe(request);
    });
  }

  private dropFreeSockets(): void {
    for (const free of Object.values(this.agent.freeSockets)) {
      for (const socket of free ?? []) socket.destroy();
    }
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
