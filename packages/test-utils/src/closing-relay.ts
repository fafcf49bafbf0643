import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ClosingRelay {
  url: string;
  /** Requests that arrived on a reused connection and were dropped without an answer. */
  dropped: number;
  /** Connections the relay accepted. */
  connections: number;
  close(): Promise<void>;
}

/**
 * A service in front of `upstream` that behaves like a server closing an idle kept-alive
 * connection just as a request arrives on it: every request after a connection's first is
 * dropped (the connection destroyed, no answer). Every other request is passed on to
 * `upstream` and its answer passed back. Real servers do this at random; this does it every time.
 */
export async function startClosingRelay(upstream: string): Promise<ClosingRelay> {
  const served = new WeakSet<Socket>();
  const relay: ClosingRelay = { url: '', dropped: 0, connections: 0, close: async () => {} };
  const server = http.createServer(async (request, response) => {
    if (served.has(request.socket)) {
      relay.dropped += 1;
      request.socket.destroy();
      return;
    }
    served.add(request.socket);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (
        !['host', 'connection', 'content-length', 'keep-alive'].includes(name) &&
        typeof value === 'string'
      ) {
        headers.set(name, value);
      }
    }
    const answer = await fetch(upstream + request.url, {
      method: request.method,
      headers,
      body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const passed: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (
        !['connection', 'keep-alive', 'content-length', 'content-encoding', 'transfer-encoding'].includes(
          name,
        )
      ) {
        passed[name] = value;
      }
    });
    response.writeHead(answer.status, passed).end(body);
  });
  // Never the relay's own idle timeout: only the drop above closes a connection.
  server.keepAliveTimeout = 120_000;
  server.on('connection', () => {
    relay.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relay.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return relay;
}
