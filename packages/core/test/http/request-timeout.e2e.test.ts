import { runNodeScript, startTestServer, TRANSPORTS, tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// Node 20 can collect an AbortSignal.timeout() before it fires, so a hung attempt was
// not abandoned at requestTimeout and its batch waited for the flush deadline. Frequent
// forced garbage collection during the request brings that out.
const script = `
import { RunReporter } from '@testrun/core';
const gcTimer = setInterval(() => globalThis.gc(), 2);
const reporter = new RunReporter({
  options: {
    apiKey: process.env.KEY, baseUrl: process.env.URL, ciTags: false, spoolDir: process.env.SPOOL,
    requestTimeout: 400, flushTimeout: 20000, maxRetries: 3, batchSize: 10,
  },
  framework: { name: 'vitest', version: '4.0.0' },
  rootDir: process.cwd(),
  env: { HTTP_PROXY: process.env.PROXY },
  write: () => {},
});
reporter.startRun();
reporter.addResults(Array.from({ length: 10 }, (_, i) => ({ testSuite: 'a.test.ts', testCase: 'case ' + i, status: 'passed', duration: 1 })));
const started = performance.now();
const summary = await reporter.endRun();
clearInterval(gcTimer);
console.log(JSON.stringify({ delivered: summary.delivered, spooled: summary.spooled, ms: Math.round(performance.now() - started) }));
`;

describe.each(TRANSPORTS)('requestTimeout, over $name', (transport) => {
  it('abandons and retries a hung request even while garbage is collected all the time', async () => {
    // The first submit never answers; the retry is answered at once.
    const { server, url, apiKey } = await startTestServer({
      faults: (request) =>
        request.route === 'submitResults' && request.n === 0 ? { delayMs: 60_000 } : undefined,
    });
    const spoolDir = tempDir('testrun-gc-');
    const route = await transport.reach(url);
    const { result } = await runNodeScript<{ delivered: number; spooled: number; ms: number }>(script, {
      env: { KEY: apiKey, URL: route.url, SPOOL: spoolDir, PROXY: route.env.HTTP_PROXY ?? '' },
      nodeArgs: ['--expose-gc'],
    });
    expect(result).toMatchObject({ delivered: 10, spooled: 0 });
    expect(server.requests.filter((request) => request.route === 'submitResults')).toHaveLength(2);
    expect(await server.store.results((await server.store.runs())[0]!.id)).toHaveLength(10);
  });
});
