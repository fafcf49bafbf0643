import {
  createReporter,
  type ForwardProxy,
  makeResults,
  startForwardProxy,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

async function serverAndProxy() {
  const started = await startTestServer();
  const proxy: ForwardProxy = await startForwardProxy();
  // The proxy must be used for 127.0.0.1 too, so the service is addressed by a name
  // that only the proxy resolves: localhost.
  const url = started.url.replace('127.0.0.1', 'localhost');
  return { ...started, proxy, url };
}

describe('proxies', () => {
  it('sends every request through HTTP_PROXY', async () => {
    const { server, url, apiKey, proxy } = await serverAndProxy();
    const { reporter } = createReporter(url, apiKey, { flushTimeout: 5000 }, { HTTP_PROXY: proxy.url });
    reporter.startRun();
    reporter.addResults(makeResults(3));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 3 });
    expect(proxy.forwarded.length).toBeGreaterThan(0);
    expect(new Set(proxy.forwarded)).toEqual(new Set([`CONNECT ${new URL(url).host}`]));
    expect(await server.store.results(summary!.runId!)).toHaveLength(3);
  });

  it('reads the lower-case http_proxy as well', async () => {
    const { url, apiKey, proxy } = await serverAndProxy();
    const { reporter } = createReporter(url, apiKey, { flushTimeout: 5000 }, { http_proxy: proxy.url });
    reporter.startRun();
    reporter.addResults(makeResults(1));
    await reporter.endRun();
    expect(proxy.forwarded.length).toBeGreaterThan(0);
    expect(new Set(proxy.forwarded)).toEqual(new Set([`CONNECT ${new URL(url).host}`]));
  });

  it('goes around the proxy for hosts listed in NO_PROXY', async () => {
    const { server, url, apiKey, proxy } = await serverAndProxy();
    const { reporter } = createReporter(
      url,
      apiKey,
      { flushTimeout: 5000 },
      { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost' },
    );
    reporter.startRun();
    reporter.addResults(makeResults(2));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 2 });
    expect(proxy.forwarded).toEqual([]);
    expect(await server.store.results(summary!.runId!)).toHaveLength(2);
  });
});
