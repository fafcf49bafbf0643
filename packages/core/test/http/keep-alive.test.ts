import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createReporterOver,
  makeResults,
  startClosingRelay,
  startTestServer,
  TRANSPORTS,
} from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { NodeTransport } from '../../src/http/node-transport.js';
import { IDLE_CONNECTION_MS } from '../../src/http/reused-connection.js';

// Kept-alive connections that servers close (docs/design/http.md#connections-that-servers-close): a
// request sent on a reused connection as the server closes it goes again at once on a new one, and
// idle connections are closed before the servers' own timeouts.

describe.each(TRANSPORTS)(
  'a server that closes a reused connection under a request, over $name',
  (transport) => {
    it('gets every batch sent again at once on a new connection: stored once, no retry used', async () => {
      const { server, url, apiKey } = await startTestServer();
      const relay = await startClosingRelay(url);
      onTestFinished(() => relay.close());
      // No retries at all: a batch that waited for a backoff retry would be spooled.
      const { reporter, lines } = await createReporterOver(transport, relay.url, apiKey, {
        concurrency: 1,
        batchSize: 5,
        maxRetries: 0,
      });
      reporter.startRun();
      reporter.addResults(makeResults(20));
      const summary = await reporter.endRun();

      expect(summary, lines.join('\n')).toMatchObject({ delivered: 20, spooled: 0 });
      // The run on the first connection; each of the 4 batches, and the run's end after them,
      // found its connection closing.
      expect(relay.dropped).toBe(5);
      const stored = (await server.store.allResults()).map((result) => result.testCase);
      expect(stored.sort()).toEqual(
        makeResults(20)
          .map((result) => result.testCase)
          .sort(),
      );
    });
  },
);

describe('idle connections, over node:http', () => {
  /** A service that answers every request with `headers`, and tells when a connection of its own closes. */
  async function startIdleWatcher(headers: Record<string, string>) {
    const closed: Promise<void>[] = [];
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(200, headers).end('{}');
    });
    // The service never closes an idle connection itself: a close is the client's.
    server.keepAliveTimeout = 0;
    server.on('connection', (socket) => closed.push(new Promise((resolve) => socket.once('close', resolve))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      server.closeAllConnections();
      server.close();
    });
    return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), closed };
  }

  async function postOnce(url: URL): Promise<NodeTransport> {
    const transport = new NodeTransport(url, undefined);
    onTestFinished(() => transport.close());
    const answer = await transport.send(url, {
      headers: {},
      body: '{}',
      signal: new AbortController().signal,
    });
    expect(answer.status).toBe(200);
    return transport;
  }

  it(`closes a connection idle for ${IDLE_CONNECTION_MS} ms, before Node's own servers close theirs (5 s)`, async () => {
    const service = await startIdleWatcher({});
    await postOnce(service.url);
    expect(service.closed).toHaveLength(1);
    await service.closed[0];
  });

  it("closes it sooner when the server's Keep-Alive header says it will close it", async () => {
    const service = await startIdleWatcher({ 'keep-alive': 'timeout=2' });
    await postOnce(service.url);
    await service.closed[0];
  });
});
