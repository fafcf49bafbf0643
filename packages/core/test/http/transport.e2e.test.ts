import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createReporterOver,
  makeResults,
  runNodeScript,
  startForwardProxy,
  startTestServer,
  TRANSPORTS,
} from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MAX_ERROR_BODY_BYTES } from '../../src/http/answer.js';
import { proxyFor } from '../../src/http/proxy.js';

/** A script that reports one result through RunReporter and prints how it went. */
const reportOneResult = `
import { RunReporter } from '@testrun/core';
const reporter = new RunReporter({
  options: { apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, spoolDir: '/tmp/testrun-unused-spool' },
  framework: { name: 'vitest', version: '4.0.0' },
  rootDir: process.cwd(),
  env: { HTTP_PROXY: process.env.PROXY },
  write: () => {},
});
reporter.startRun();
reporter.addResults([{ testSuite: 'a.test.ts', testCase: 'x', status: 'passed', duration: 1 }]);
const summary = await reporter.endRun();
// Node's own record of the built-ins this process loaded.
const loaded = (name) => process.moduleLoadList.includes(\`NativeModule \${name}\`);
console.log(JSON.stringify({ delivered: summary.delivered, loaded: ['_http_client', 'crypto', 'tls'].filter(loaded) }));`;

describe('which transport a run uses', () => {
  it('connects directly over node:http and loads no undici at all when no proxy applies', async () => {
    const { url, apiKey, server } = await startTestServer();
    const { result, resolved } = await runNodeScript<{ delivered: number; loaded: string[] }>(
      reportOneResult,
      {
        env: { KEY: apiKey, URL: url, PROXY: '' },
      },
    );
    expect(result.delivered).toBe(1);
    expect(await server.store.allResults()).toHaveLength(1);
    expect(resolved).toContain('@testrun/core');
    expect(resolved.filter((specifier) => specifier.includes('undici'))).toEqual([]);
    // Nor node:crypto (ids come from random-uuid.ts) nor node:tls; the HTTP client shows that the
    // record is read.
    expect(result.loaded).toEqual(['_http_client']);
  });

  it('goes through the proxy HTTP_PROXY names, over undici', async () => {
    const { url, apiKey, server } = await startTestServer();
    const proxy = await startForwardProxy();
    const local = url.replace('127.0.0.1', 'localhost');
    const { result, resolved } = await runNodeScript<{ delivered: number; loaded: string[] }>(
      reportOneResult,
      {
        env: { KEY: apiKey, URL: local, PROXY: proxy.url },
      },
    );
    expect(result.delivered).toBe(1);
    expect(await server.store.allResults()).toHaveLength(1);
    expect(proxy.forwarded).toContain(`CONNECT ${new URL(local).host}`);
    expect(resolved).toContain('undici');
  });
});

describe('proxyFor, as undici read the environment', () => {
  const url = (address: string) => new URL(address);

  it.each([
    ['https://svc.example', { HTTPS_PROXY: 'http://p:1' }, 'http://p:1'],
    ['https://svc.example', { https_proxy: 'http://p:1' }, 'http://p:1'],
    ['https://svc.example', { HTTP_PROXY: 'http://p:2' }, 'http://p:2'],
    ['http://svc.example', { HTTPS_PROXY: 'http://p:1' }, undefined],
    ['http://svc.example', { HTTP_PROXY: 'http://p:2', HTTPS_PROXY: 'http://p:1' }, 'http://p:2'],
    ['https://svc.example', { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:2' }, 'http://p:1'],
  ])('%s with %j goes through %s', (address, env, proxy) => {
    expect(proxyFor(url(address), env)).toBe(proxy);
  });

  it.each([
    ['*', 'https://svc.example', undefined],
    ['svc.example', 'https://svc.example', undefined],
    ['svc.example', 'https://api.svc.example', undefined],
    ['.svc.example', 'https://api.svc.example', undefined],
    ['*.svc.example', 'https://api.svc.example', undefined],
    ['other.example, svc.example', 'https://svc.example', undefined],
    ['other.example svc.example', 'https://svc.example', undefined],
    ['svc.example:8443', 'https://svc.example:8443', undefined],
    ['svc.example:8443', 'https://svc.example', 'http://p:1'],
    ['svc.example:443', 'https://svc.example', undefined],
    ['notsvc.example', 'https://svc.example', 'http://p:1'],
    ['SVC.EXAMPLE', 'https://svc.example', undefined],
    ['', 'https://svc.example', 'http://p:1'],
  ])('NO_PROXY=%j: %s goes through %s', (noProxy, address, proxy) => {
    expect(proxyFor(url(address), { HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy })).toBe(proxy);
  });
});

describe.each(TRANSPORTS)('on the wire, over $name', (transport) => {
  it('keeps one connection for a whole run that sends one request at a time', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter } = await createReporterOver(transport, url, apiKey, { concurrency: 1, batchSize: 5 });
    reporter.startRun();
    reporter.addResults(makeResults(20));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 20 });
    // create-run, four batches, and the run's end.
    expect(server.requests).toHaveLength(6);
    expect(new Set(server.requests.map((request) => request.connection)).size).toBe(1);
  });

  it('reads at most the start of a huge error body and leaves the rest unread', async () => {
    let sent = 0;
    const huge = await startRawServer((request, response) => {
      request.resume();
      response.writeHead(503, { 'content-type': 'text/plain' });
      // 400 MB of error page, streamed as long as the client reads it.
      const chunk = Buffer.alloc(64 * 1024, 'e');
      const write = () => {
        while (sent < 400 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return response.once('drain', write);
        }
        response.end();
      };
      response.on('close', () => response.removeAllListeners('drain'));
      write();
    });
    const { reporter, lines } = await createReporterOver(transport, huge, 'key-1234', {
      maxRetries: 0,
      flushTimeout: 5000,
    });
    reporter.startRun();
    reporter.addResults(makeResults(1));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 0, spooled: 1 });
    expect(lines.join('\n')).toMatch(/answered 503: e{200}…/);
    // What the server managed to write before the client hung up: the prefix, plus what the socket buffers held.
    expect(sent).toBeLessThan(64 * MAX_ERROR_BODY_BYTES);
  });

  it('follows no redirect: the key and the results never go to the address a 307 names', async () => {
    const elsewhere = await startTestServer({ apiKey: 'key-1234' });
    const { server, url } = await startTestServer({
      apiKey: 'key-1234',
      faults: () => ({ status: 307, headers: { location: `${elsewhere.url}/api/v1/runs` } }),
    });
    const { reporter } = await createReporterOver(transport, url, 'key-1234', { maxRetries: 1 });
    reporter.startRun();
    reporter.addResults(makeResults(2));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 0, spooled: 2 });
    expect(server.requests.map((request) => request.status)).toEqual([307]);
    expect(elsewhere.server.requests).toEqual([]);
  });

  it('retries a connection reset while the body is still being sent, and stores the batch once', async () => {
    const { server, url, apiKey } = await startTestServer();
    let resets = 0;
    // In front of the service: the first results request's connection is reset mid-body.
    const front = await startRawServer((request, response) => {
      if (request.url?.endsWith('/results') && resets === 0) {
        resets += 1;
        request.once('data', () => request.socket.resetAndDestroy());
        return;
      }
      const upstream = http.request(`${url}${request.url}`, {
        method: request.method,
        headers: request.headers,
      });
      upstream.on('response', (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    });
    const { reporter } = await createReporterOver(transport, front, apiKey, { batchSize: 2000 });
    reporter.startRun();
    // A body large enough to arrive in several chunks.
    reporter.addResults(makeResults(2000));
    const summary = await reporter.endRun();
    expect(resets).toBe(1);
    expect(summary).toMatchObject({ delivered: 2000, spooled: 0 });
    expect(await server.store.allResults()).toHaveLength(2000);
  });
});

/** A bare node:http server on 127.0.0.1 for answers the service never gives; closed when the test ends. */
async function startRawServer(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
