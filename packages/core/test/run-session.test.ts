import diagnostics from 'node:diagnostics_channel';
import { createReporter, makeResults, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

function stripDurations(results: readonly { testSuite: string; testCase: string; status: string }[]) {
  return results.map(({ testSuite, testCase, status }) => ({ testSuite, testCase, status }));
}

describe('RunSession against the local server', () => {
  it('creates a run and stores exactly the results that were sent', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter } = createReporter(url, apiKey, { tags: ['nightly'] });
    reporter.startRun();
    reporter.addResults([
      { testSuite: 'a.test.ts', testCase: 'adds', status: 'passed', duration: 12.5 },
      { testSuite: 'a.test.ts', testCase: 'fails', status: 'failed', duration: 3 },
      { testSuite: 'b.test.ts', testCase: 'later', status: 'todo', duration: undefined },
    ]);
    const summary = await reporter.endRun();

    const [run] = await server.store.runs();
    expect(run).toMatchObject({ project: 'core-tests', framework: 'vitest', tags: ['nightly'] });
    // create-run, the batch, the run's end (the local server announces `complete-run`), and,
    // since a test failed, the run's quarantine list (it announces `quarantine`).
    expect(summary).toMatchObject({ runId: run!.id, delivered: 3, spooled: 0, failed: 0, requests: 4 });
    expect(summary!.runEnd).toEqual({ status: 'failed', state: 'sent' });
    expect((await server.store.results(run!.id)).map(({ runId: _, ...result }) => result)).toEqual([
      { testSuite: 'a.test.ts', testCase: 'adds', status: 'passed', duration: 12.5 },
      {
        testSuite: 'a.test.ts',
        testCase: 'fails',
        status: 'failed',
        duration: 3,
        // Handed over without an error: core says what it knows.
        details: { message: 'the test failed; vitest reported no error for it' },
      },
      { testSuite: 'b.test.ts', testCase: 'later', status: 'skipped', duration: 0 },
    ]);
  });

  it('sends N results in ceil(N / batchSize) result requests and stores them all once', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter } = createReporter(url, apiKey, { batchSize: 100 });
    reporter.startRun();
    const sent = makeResults(1234);
    for (let i = 0; i < sent.length; i += 37) reporter.addResults(sent.slice(i, i + 37));
    const summary = await reporter.endRun();

    const submits = server.requests.filter((r) => r.route === 'submitResults');
    expect(submits).toHaveLength(13);
    expect(summary?.requests).toBe(15);
    const stored = await server.store.results(summary!.runId!);
    expect(stripDurations(stored).sort(byCase)).toEqual(stripDurations(sent as never).sort(byCase));
  });

  it('delivers results added before create-run has answered', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (req) => (req.route === 'createRun' ? { delayMs: 400 } : undefined),
    });
    const { reporter } = createReporter(url, apiKey, { flushInterval: 10, batchSize: 5 });
    reporter.startRun();
    reporter.addResults(makeResults(12));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 12, spooled: 0 });
    expect(await server.store.results(summary!.runId!)).toHaveLength(12);
  });

  it('streams a batch after flushInterval without waiting for the end of the run', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter } = createReporter(url, apiKey, { flushInterval: 20 });
    reporter.startRun();
    reporter.addResults(makeResults(3));
    await waitFor(() => server.requests.some((r) => r.route === 'submitResults' && r.status === 201));
    const [run] = await server.store.runs();
    expect(await server.store.results(run!.id)).toHaveLength(3);
    await reporter.endRun();
  });

  it("asks again with the same key when reading create-run's answer throws (a test stubbed a built-in meanwhile)", async () => {
    const { server, url, apiKey } = await startTestServer();
    // As the Mocha fixture's stubbed-builtins test does between its hook and its test: the first
    // create-run answer arrives while Array.prototype.filter returns undefined.
    const filter = Array.prototype.filter;
    let stubbed = 0;
    const onResponse = (message: unknown) => {
      const { request } = message as { request: { path: string } };
      if (stubbed > 0 || !request.path.endsWith('/runs')) return;
      stubbed += 1;
      Array.prototype.filter = (() => undefined) as never;
      setTimeout(() => {
        Array.prototype.filter = filter;
      }, 20);
    };
    diagnostics.subscribe('http.client.response.finish', onResponse);
    try {
      const { reporter, lines } = createReporter(url, apiKey);
      reporter.startRun();
      reporter.addResults(makeResults(3));
      const summary = await reporter.endRun();

      expect(stubbed).toBe(1);
      expect(summary).toMatchObject({ delivered: 3, spooled: 0, failed: 0 });
      const creates = server.requests.filter((r) => r.route === 'createRun');
      expect(creates).toHaveLength(2);
      expect(new Set(creates.map((r) => r.idempotencyKey)).size).toBe(1);
      expect(await server.store.runs()).toHaveLength(1);
      expect(await server.store.results(summary!.runId!)).toHaveLength(3);
      // Asked again with its own key, not a run key used twice: nothing to say.
      expect(lines.join('\n')).not.toMatch(/could not be created|used before/);
    } finally {
      diagnostics.unsubscribe('http.client.response.finish', onResponse);
      Array.prototype.filter = filter;
    }
  });

  it('submits into an existing run given by runId and creates none', async () => {
    const { server, url, apiKey } = await startTestServer();
    const first = createReporter(url, apiKey);
    first.reporter.startRun();
    const { runId } = (await first.reporter.endRun())!;
    const second = createReporter(url, apiKey, { runId: runId! });
    second.reporter.startRun();
    second.reporter.addResults(makeResults(4));
    const summary = await second.reporter.endRun();
    expect(await server.store.runs()).toHaveLength(1);
    expect(summary).toMatchObject({ runId, delivered: 4, requests: 1 });
    expect(await server.store.results(runId!)).toHaveLength(4);
  });

  it('sends the spec headers, a User-Agent and an Idempotency-Key on every request', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter } = createReporter(url, apiKey, { batchSize: 2 });
    reporter.startRun();
    reporter.addResults(makeResults(4));
    await reporter.endRun();
    expect(server.requests.map((request) => request.route)).toEqual([
      'createRun',
      'submitResults',
      'submitResults',
      'completeRun',
    ]);
    for (const request of server.requests) {
      expect(request.authorized).toBe(true);
      expect(request.userAgent).toMatch(/^testrun\/\d+\.\d+\.\d+ \(vitest\/4\.0\.0; node\/\d+\.\d+\.\d+\)$/);
      expect(request.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    }
    const keys = new Set(server.requests.map((r) => r.idempotencyKey));
    expect(keys.size).toBe(4);
  });

  it('delivers into a run whose id is past 2^53 when create-run answers it only as a JSON number', async () => {
    const { server, url, apiKey } = await startTestServer({ runIds: 'integer' });
    const created = await fetch(`${url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: '{"project":"p","framework":"vitest","tags":[]}',
    });
    expect(await created.text()).toContain('"id":9007199254740993,');
    // The reporter's create-run gets the bare number: no Location, no string to fall back on.
    server.setFaults((request) =>
      request.route === 'createRun' ? { status: 201, body: '{"id":9007199254740993}' } : undefined,
    );
    const { reporter } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(3));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ runId: '9007199254740993', delivered: 3, spooled: 0 });
    expect(await server.store.results('9007199254740993')).toHaveLength(3);
  });

  it('prints the summary line with the delivered count and the run id', async () => {
    const { url, apiKey } = await startTestServer();
    const { reporter, lines } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(1500));
    const summary = await reporter.endRun();
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^testrun: 1,500 results → run ${summary!.runId} \\(5 requests, \\d+\\.\\d\\d s\\) ${url}/runs/${summary!.runId}; run marked completed$`,
        ),
      ),
    ]);
  });

  it('prints no page link when the service does not say it has one, even on this machine', async () => {
    const { url, apiKey } = await startTestServer({
      faults: (request) =>
        request.route === 'createRun' ? { status: 201, body: { id: 'run-without-a-page' } } : undefined,
    });
    const { reporter, lines } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults(makeResults(1));
    await reporter.endRun();
    expect(lines.at(-1)).toMatch(
      /^testrun: \d+ results? → run run-without-a-page \(\d+ requests, \d+\.\d\d s\)/,
    );
    expect(lines.at(-1)).not.toContain('http');
  });

  it('stays off with one line and sends nothing when options are invalid', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter, lines } = createReporter(url, apiKey, { batchSize: -3 } as never);
    reporter.startRun();
    reporter.addResults(makeResults(2));
    expect(await reporter.endRun()).toBeUndefined();
    expect(reporter.active).toBe(false);
    expect(lines).toEqual([
      expect.stringMatching(/^testrun: reporting is off: option batchSize must be a whole number/),
    ]);
    expect(server.requests).toHaveLength(0);
  });
});

function byCase(a: { testCase: string }, b: { testCase: string }): number {
  return a.testCase.localeCompare(b.testCase);
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
