import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { whenTheTestEnds } from './test-scope.js';

export interface ForwardProxy {
  url: string;
  /** What went through the proxy: `CONNECT host:port` per tunnel, `METHOD url` per plain request. */
  forwarded: string[];
  close(): Promise<void>;
}

/**
 * A minimal HTTP forward proxy on 127.0.0.1, as corporate CI networks have: CONNECT
 * tunnels (what undici's proxy agent opens, for https and http targets alike) and
 * absolute-form requests. It records each, enough to prove traffic went through it.
 */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const forwarded: string[] = [];
  const server = http.createServer((request, response) => {
    const target = new URL(request.url ?? '/');
    forwarded.push(`${request.method} ${target.href}`);
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  server.on('connect', (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    forwarded.push(`CONNECT ${request.url}`);
    const [host, port] = splitHostPort(request.url ?? '');
    const upstream = net.connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    return closed;
  };
  // As test servers are (server.ts): started in a test, closed when it finishes.
  whenTheTestEnds(close);
  return { url: `http://127.0.0.1:${port}`, forwarded, close };
}

function splitHostPort(authority: string): [string, number] {
  const at = authority.lastIndexOf(':');
  return [authority.slice(0, at).replace(/^\[|\]$/g, ''), Number(authority.slice(at + 1))];
}
