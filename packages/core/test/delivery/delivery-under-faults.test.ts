import fs from 'node:fs';
import { replaySpool, type TestrunOptions } from '@testrun/core';
import {
  closedPortUrl,
  createReporterOver,
  makeResults,
  readSpoolLines,
  seededFaults,
  startTestServer,
  TRANSPORTS,
} from '@testrun/test-utils';
import { describe, expect, test } from 'vitest';

/** Asserts every case in `expected` is stored exactly once and nothing else is. */
function expectStoredOnce(stored: readonly { testCase: string }[], expectedCount: number): void {
  const cases = stored.map((r) => r.testCase);
  expect(new Set(cases).size).toBe(cases.length);
  expect(cases).toHaveLength(expectedCount);
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

// Most of these tests wait (a Retry-After, a deadline, backoffs): the two transports run side
// by side, each one's tests in turn.
describe.concurrent.each(TRANSPORTS)('when the service misbehaves, over $name', (transport) => {
  const it = test.sequential;
  const reporterOver = (url: string, apiKey: string, options: TestrunOptions = {}) =>
    createReporterOver(transport, url, apiKey, options);

  /** A replay of `dir` into the service at `url`, the way this transport reaches it. */
  async function replayOver(url: string, apiKey: string, dir: string, ignoreRecordedUrl = false) {
    const route = await transport.reach(url);
    return replaySpool({
      dir,
      apiKey,
      baseUrl: route.url,
      env: route.env,
      ignoreRecordedUrl,
      userAgent: 'testrun-test',
      log: () => {},
    });
  }

  it('delivers every result exactly once through 30% 5xx answers and 10% dropped connections', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: seededFaults({ seed: 42, rates: { status5xx: 0.3, drop: 0.1 } }),
    });
    const { reporter } = await reporterOver(url, apiKey, {
      batchSize: 40,
      maxRetries: 12,
      requestTimeout: 2000,
    });
    reporter.startRun();
    const sent = makeResults(2000);
    for (let i = 0; i < sent.length; i += 100) reporter.addResults(sent.slice(i, i + 100));
    const summary = await reporter.endRun();

    expect(summary).toMatchObject({ delivered: 2000, spooled: 0, failed: 0 });
    expect(await server.store.runs()).toHaveLength(1);
    expectStoredOnce(await server.store.results(summary!.runId!), 2000);
    const statuses = new Set(server.requests.map((r) => r.status));
    expect(statuses.has('dropped')).toBe(true);
    expect([...statuses].some((s) => typeof s === 'number' && s >= 500)).toBe(true);
  });

  it('waits the Retry-After seconds of a 429 before the next attempt', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) =>
        req.route === 'submitResults' && req.n === 0
          ? { status: 429, headers: { 'retry-after': '1' } }
          : undefined,
    });
    const { reporter } = await reporterOver(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(5));
    const summary = await reporter.endRun();
    const [first, second] = server.requests.filter((r) => r.route === 'submitResults');
    expect(first!.status).toBe(429);
    expect(second!.status).toBe(201);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    expectStoredOnce(await server.store.results(summary!.runId!), 5);
  });

  it('waits until the HTTP date of a 429 Retry-After before the next attempt', async () => {
    let retryAt = 0;
    const { server, url, apiKey } = await startTestServer({
      faults: (req) => {
        if (req.route !== 'submitResults' || req.n > 0) return undefined;
        retryAt = (Math.floor(Date.now() / 1000) + 2) * 1000;
        return { status: 429, headers: { 'retry-after': new Date(retryAt).toUTCString() } };
      },
    });
    const { reporter } = await reporterOver(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(5));
    const summary = await reporter.endRun();
    const attempts = server.requests.filter((r) => r.route === 'submitResults');
    expect(attempts.map((r) => r.status)).toEqual([429, 201]);
    expect(attempts[1]!.at).toBeGreaterThanOrEqual(retryAt);
    expectStoredOnce(await server.store.results(summary!.runId!), 5);
  });

  it('retries a 409 answered while an attempt with the same idempotency key is still in flight', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) =>
        req.route === 'submitResults' && req.n === 0
          ? { status: 409, body: { error: { code: 'idempotency_key_in_flight', message: 'in flight' } } }
          : undefined,
    });
    const { reporter } = await reporterOver(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(4));
    const summary = await reporter.endRun();
    const submits = server.requests.filter((r) => r.route === 'submitResults');
    expect(submits.map((r) => r.status)).toEqual([409, 201]);
    expect(submits[0]!.idempotencyKey).toBe(submits[1]!.idempotencyKey);
    expectStoredOnce(await server.store.results(summary!.runId!), 4);
  });

  it('stops retrying every batch once the key is refused', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) => {
        if (req.route !== 'submitResults') return undefined;
        return req.n === 0 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 401 };
      },
    });
    const { reporter, spoolDir } = await reporterOver(url, apiKey, { batchSize: 5 });
    reporter.startRun();
    reporter.addResults(makeResults(10));
    const summary = await reporter.endRun();
    // One attempt per batch: the one waiting out its Retry-After is not sent again after the 401.
    expect(server.requests.filter((r) => r.route === 'submitResults').map((r) => r.status)).toEqual([
      503, 401,
    ]);
    expect(summary).toMatchObject({ delivered: 0, spooled: 10 });
    expect(readSpoolLines(spoolDir).filter((line) => line.type === 'batch')).toHaveLength(2);
  });

  it('keeps a Location header with a malformed escape as the run id instead of failing', async () => {
    const { url, apiKey } = await startTestServer({
      faults: (req) =>
        req.route === 'createRun'
          ? { status: 201, headers: { location: '/api/v1/runs/%E0%A4%A' }, body: '' }
          : undefined,
    });
    const { reporter, lines } = await reporterOver(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(2));
    const summary = await reporter.endRun();
    // The server knows no run "%E0%A4%A": the results are refused with 404 and spooled, not lost.
    expect(summary).toMatchObject({ runId: '%E0%A4%A', delivered: 0, spooled: 2 });
    expect(lines.some((line) => line.includes('answered 404'))).toBe(true);
  });

  // 120 results in batches of 50 to a server that takes 7 a request: split by its 413s, or
  // before sending where create-run announced the limit.
  async function deliverPast7(announceResultLimits: boolean) {
    const { server, url, apiKey } = await startTestServer({ maxResultsPerRequest: 7, announceResultLimits });
    const { reporter } = await reporterOver(url, apiKey, { batchSize: 50 });
    reporter.startRun();
    reporter.addResults(makeResults(120));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 120, spooled: 0 });
    expectStoredOnce(await server.store.results(summary!.runId!), 120);
    return server.requests.filter((r) => r.route === 'submitResults');
  }

  it('splits a batch answered 413 until the server accepts every part', async () => {
    const submits = await deliverPast7(false);
    expect(submits.some((r) => r.status === 413)).toBe(true);
    expect(submits.filter((r) => r.status === 201).every((r) => (r.resultCount ?? 0) <= 7)).toBe(true);
  });

  it('splits a batch past the limits create-run announced before sending it: no 413', async () => {
    const submits = await deliverPast7(true);
    expect(submits.map((r) => r.status).filter((status) => status !== 201)).toEqual([]);
    expect(submits.every((r) => (r.resultCount ?? 0) <= 7)).toBe(true);
  });

  it('stores a batch once when the connection drops after the server stored it', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) => (req.route === 'submitResults' && req.n === 0 ? { drop: 'after' } : undefined),
    });
    const { reporter } = await reporterOver(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(30));
    const summary = await reporter.endRun();
    const submits = server.requests.filter((r) => r.route === 'submitResults');
    expect(submits.map((r) => r.status)).toEqual(['dropped', 201]);
    expect(submits[0]!.idempotencyKey).toBe(submits[1]!.idempotencyKey);
    expect(summary).toMatchObject({ delivered: 30, spooled: 0 });
    expectStoredOnce(await server.store.results(summary!.runId!), 30);
  });

  it('abandons attempts slower than requestTimeout and retries them', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) => (req.route === 'submitResults' && req.n < 2 ? { delayMs: 1500 } : undefined),
    });
    const { reporter } = await reporterOver(url, apiKey, { requestTimeout: 300 });
    reporter.startRun();
    reporter.addResults(makeResults(10));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 10, spooled: 0 });
    expect(server.requests.filter((r) => r.route === 'submitResults').length).toBeGreaterThanOrEqual(3);
    expectStoredOnce(await server.store.results(summary!.runId!), 10);
  });

  it('ends the flush within flushTimeout + 1 s against a server that never answers in time, spooling all', async () => {
    const { url, apiKey } = await startTestServer({
      faults: (req) => (req.route === 'submitResults' ? { delayMs: 20_000 } : undefined),
    });
    const { reporter, spoolDir, lines } = await reporterOver(url, apiKey, {
      requestTimeout: 500,
      flushTimeout: 2000,
      debug: true,
    });
    reporter.startRun();
    reporter.addResults(makeResults(25));
    const { value: summary, ms } = await timed(() => reporter.endRun());
    // Attempts cut at what was left of the deadline: fractional milliseconds, printed rounded.
    expect(lines.join('\n')).toMatch(/no answer within requestTimeout \(\d+ ms\)/);
    expect(lines.join('\n')).not.toMatch(/\d\.\d{4,}/);
    expect(ms).toBeLessThan(2000 + 1000);
    expect(summary).toMatchObject({ delivered: 0, spooled: 25, failed: 0 });
    expect(
      readSpoolLines(spoolDir)
        .filter((l) => l.type === 'batch')
        .flatMap((l) => l.results as unknown[]),
    ).toHaveLength(25);
  });

  it('spools each waiting batch exactly once at the deadline, from memory and from the overflow', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) => (req.route === 'submitResults' ? { delayMs: 20_000 } : undefined),
    });
    const { reporter, spoolDir } = await reporterOver(url, apiKey, {
      batchSize: 5,
      concurrency: 2,
      requestTimeout: 5000,
      flushTimeout: 1500,
    });
    reporter.startRun();
    reporter.addResults(makeResults(100));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 0, spooled: 100, failed: 0 });
    const spooledCases = readSpoolLines(spoolDir)
      .filter((line) => line.type === 'batch')
      .flatMap((line) => (line.results as { testCase: string }[]).map((r) => r.testCase));
    expect(new Set(spooledCases).size).toBe(100);
    expect(spooledCases).toHaveLength(100);
    expect(server.requests.filter((r) => r.route === 'submitResults')).toHaveLength(2);
  });

  it('spools everything when the server is down, and replay later delivers it exactly once', async () => {
    const deadUrl = await closedPortUrl();
    const { reporter, spoolDir, lines } = await reporterOver(deadUrl, 'key-for-a-dead-server', {
      flushTimeout: 1500,
      batchSize: 20,
    });
    reporter.startRun();
    reporter.addResults(makeResults(50));
    const { value: summary, ms } = await timed(() => reporter.endRun());
    expect(ms).toBeLessThan(1500 + 1000);
    expect(summary).toMatchObject({ runId: undefined, delivered: 0, spooled: 50 });
    expect(lines.at(-1)).toContain(`50 spooled to ${spoolDir}/`);
    expect(lines.at(-1)).toContain(`: send them with \`npx @testrun/cli replay --dir ${spoolDir}\``);
    const spooled = readSpoolLines(spoolDir);
    expect(spooled[0]).toMatchObject({
      type: 'run',
      runId: null,
      run: { project: 'core-tests', framework: 'vitest' },
    });

    const { server, url, apiKey } = await startTestServer({ apiKeys: ['key-for-a-dead-server'] });
    // The service is back on another port: the spool names the dead one.
    const replay = () => replayOver(url, apiKey, spoolDir, true);
    const first = await replay();
    expect(first).toMatchObject({ files: 1, delivered: 50, remaining: 0, errors: [] });
    expect(fs.readdirSync(spoolDir)).toEqual([]);
    const second = await replay();
    expect(second).toMatchObject({ files: 0, delivered: 0, remaining: 0 });
    expect(await server.store.runs()).toHaveLength(1);
    expectStoredOnce(await server.store.results((await server.store.runs())[0]!.id), 50);
  });

  it('replays a spooled batch that had in fact been stored without storing it twice', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) => (req.route === 'submitResults' ? { drop: 'after' } : undefined),
    });
    const { reporter, spoolDir } = await reporterOver(url, apiKey, { maxRetries: 0 });
    reporter.startRun();
    reporter.addResults(makeResults(8));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 0, spooled: 8 });
    expect(await server.store.results(summary!.runId!)).toHaveLength(8);

    server.setFaults(undefined);
    const replayed = await replayOver(url, apiKey, spoolDir);
    expect(replayed).toMatchObject({ delivered: 8, remaining: 0 });
    expectStoredOnce(await server.store.results(summary!.runId!), 8);
  });

  it.each([401, 403])(
    'stops after a %i, names TESTRUN_API_KEY once and spools the results',
    async (status) => {
      const { server, url } = await startTestServer();
      const { reporter, lines, spoolDir } = await reporterOver(url, 'wrong-key-123', { batchSize: 5 });
      server.setFaults(
        status === 403 ? () => ({ status: 403, body: { error: { code: 'forbidden' } } }) : undefined,
      );
      reporter.startRun();
      reporter.addResults(makeResults(20));
      const summary = await reporter.endRun();
      expect(server.requests.length).toBeLessThanOrEqual(2);
      expect(lines.filter((line) => line.includes('TESTRUN_API_KEY'))).toHaveLength(1);
      expect(summary).toMatchObject({ delivered: 0, spooled: 20 });
      expect(readSpoolLines(spoolDir).filter((l) => l.type === 'batch')).toHaveLength(4);
    },
  );

  it.each([
    [
      'HTML',
      { 'content-type': 'text/html' },
      '<html><body>Welcome to the proxy login page</body></html>',
      /answered 200 but no run id was found.*"<html><body>Welcome to the proxy login page/,
    ],
    [
      'JSON without an id',
      { 'content-type': 'application/json' },
      '{"ok":true,"name":"run"}',
      /answered 200 but no run id was found.*\{\\"ok\\":true,\\"name\\":\\"run\\"\}/,
    ],
  ])(
    'explains a create-run answered 200 with %s and spools the results',
    async (_kind, headers, body, message) => {
      const { url, apiKey } = await startTestServer({
        faults: (req) => (req.route === 'createRun' ? { status: 200, headers, body } : undefined),
      });
      const { reporter, lines, spoolDir } = await reporterOver(url, apiKey);
      reporter.startRun();
      reporter.addResults(makeResults(6));
      const summary = await reporter.endRun();
      expect(summary).toMatchObject({ runId: undefined, delivered: 0, spooled: 6 });
      expect(lines.some((line) => message.test(line))).toBe(true);
      expect(lines.some((line) => line.includes('runIdPath'))).toBe(true);
      expect(readSpoolLines(spoolDir)[0]).toMatchObject({ type: 'run', runId: null });
    },
  );

  it('does not retry a 400 and quotes the server body', async () => {
    const { server, url, apiKey } = await startTestServer({ statuses: ['passed'] });
    const { reporter, lines } = await reporterOver(url, apiKey);
    reporter.startRun();
    reporter.addResults([{ testSuite: 's', testCase: 'c', status: 'failed', duration: 1 }]);
    const summary = await reporter.endRun();
    expect(server.requests.filter((r) => r.route === 'submitResults')).toHaveLength(1);
    expect(summary).toMatchObject({ delivered: 0, spooled: 1 });
    expect(lines.some((line) => /answered 400: .*status/.test(line))).toBe(true);
  });

  it('sets an error only with failOnError when results were not delivered', async () => {
    const deadUrl = await closedPortUrl();
    const quiet = await reporterOver(deadUrl, 'k-1234', { flushTimeout: 500 });
    quiet.reporter.startRun();
    quiet.reporter.addResults(makeResults(2));
    await quiet.reporter.endRun();
    expect(quiet.reporter.error).toBeUndefined();

    const strict = await reporterOver(deadUrl, 'k-1234', { flushTimeout: 500, failOnError: true });
    strict.reporter.startRun();
    strict.reporter.addResults(makeResults(2));
    await strict.reporter.endRun();
    expect(strict.reporter.error?.code).toBe('TESTRUN_UNDELIVERED');
    expect(strict.reporter.error?.message).toMatch(/2 of 2 results not delivered/);
  });
});
