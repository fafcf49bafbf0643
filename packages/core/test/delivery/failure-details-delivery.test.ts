import path from 'node:path';
import type { FaultRequest } from '@testrun/server';
import { closedPortUrl, createReporter, readSpoolLines, startTestServer } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { replaySpool } from '../../src/spool/replay.js';
import type { RawResult } from '../../src/types.js';

// Why a test failed goes only where the run accepts it (docs/design/failure-details.md#negotiation):
// the local server announces `failure-details` in create-run's answer unless started without it.

const file = path.join(process.cwd(), 'src', 'cart.test.ts');
const failing: RawResult[] = [
  {
    testSuite: 'src/cart.test.ts',
    testCase: 'adds',
    status: 'failed',
    duration: 3,
    failure: {
      errors: [{ message: 'expected 1 to be 2', stack: `Error: expected 1 to be 2\n    at ${file}:7:11` }],
    },
  },
  { testSuite: 'src/cart.test.ts', testCase: 'keeps', status: 'passed', duration: 1 },
];
const source = { file };

/** The results bodies the server received, as JSON text (they were sent compact, so this is their bytes). */
function bodiesOf(seen: FaultRequest[]): string[] {
  return seen.filter((r) => r.route === 'submitResults').map((r) => JSON.stringify(r.body));
}

async function serverSeeing(options: { failureDetails?: boolean } = {}) {
  const seen: FaultRequest[] = [];
  const started = await startTestServer({
    ...options,
    faults: (request) => {
      seen.push(request);
    },
  });
  return { ...started, seen };
}

describe('a run whose service announces failure-details', () => {
  it('sends a failed result with its message, stack and location, a passed one with the four fields', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults(failing, source);
    const summary = await reporter.endRun();

    const [failed, passed] = await server.store.results(summary!.runId!);
    expect(failed?.details).toEqual({
      message: 'expected 1 to be 2',
      stack: `Error: expected 1 to be 2\n    at ${file}:7:11`,
      location: 'src/cart.test.ts:7:11',
    });
    expect(passed).not.toHaveProperty('details');
  });

  it("sends the four fields only with failureDetails: 'never'", async () => {
    const { url, apiKey, seen } = await serverSeeing();
    const { reporter } = createReporter(url, apiKey, { failureDetails: 'never' });
    reporter.startRun();
    reporter.addResults(failing, source);
    await reporter.endRun();
    expect(bodiesOf(seen)).toEqual([
      '{"results":[{"testSuite":"src/cart.test.ts","testCase":"adds","status":"failed","duration":3},{"testSuite":"src/cart.test.ts","testCase":"keeps","status":"passed","duration":1}]}',
    ]);
  });
});

describe('a run whose service says nothing', () => {
  it('sends exactly the bytes of the four fields', async () => {
    const { server, url, apiKey, seen } = await serverSeeing({ failureDetails: false });
    const { reporter } = createReporter(url, apiKey);
    reporter.startRun();
    reporter.addResults(failing, source);
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 2, failed: 0, spooled: 0 });
    expect(bodiesOf(seen)).toEqual([
      '{"results":[{"testSuite":"src/cart.test.ts","testCase":"adds","status":"failed","duration":3},{"testSuite":"src/cart.test.ts","testCase":"keeps","status":"passed","duration":1}]}',
    ]);
    expect((await server.store.results(summary!.runId!))[0]).not.toHaveProperty('details');
  });
});

describe('a shared run (runId given: create-run was not ours)', () => {
  it("sends the four fields by default, and the details with failureDetails: 'always'", async () => {
    const { server, url, apiKey } = await startTestServer();
    const created = await fetch(`${url}/api/v1/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: '{"project":"p","framework":"vitest"}',
    });
    const runId = ((await created.json()) as { id: string }).id;
    for (const failureDetails of ['auto', 'always'] as const) {
      const { reporter } = createReporter(url, apiKey, { runId, failureDetails });
      reporter.startRun();
      reporter.addResults([failing[0]!], source);
      await reporter.endRun();
    }
    const [auto, always] = await server.store.results(runId);
    expect(auto).not.toHaveProperty('details');
    expect(always?.details?.message).toBe('expected 1 to be 2');
  });
});

describe('the spool and replay', () => {
  it('keep the details, and replay sends them to a service that announces the extension', async () => {
    const down = await closedPortUrl();
    const { reporter, spoolDir } = createReporter(down, 'a-key-for-the-spool', {
      flushTimeout: 500,
      maxRetries: 0,
    });
    reporter.startRun();
    reporter.addResults(failing, source);
    await reporter.endRun();
    const [runRecord, batch] = readSpoolLines(spoolDir);
    expect(runRecord).not.toHaveProperty('failureDetails');
    expect((batch as { results: { details?: { message?: string } }[] }).results[0]?.details?.message).toBe(
      'expected 1 to be 2',
    );

    const { server, url, apiKey } = await startTestServer();
    const summary = await replaySpool({
      dir: spoolDir,
      apiKey,
      baseUrl: url,
      ignoreRecordedUrl: true,
      userAgent: 'testrun-test',
      env: {},
      log: () => {},
    });
    expect(summary.delivered).toBe(2);
    const [run] = await server.store.runs();
    expect((await server.store.results(run!.id))[0]?.details?.location).toBe('src/cart.test.ts:7:11');
  });

  it('replay sends the four fields to a service that does not announce it', async () => {
    const down = await closedPortUrl();
    const { reporter, spoolDir } = createReporter(down, 'a-key-for-the-spool', {
      flushTimeout: 500,
      maxRetries: 0,
    });
    reporter.startRun();
    reporter.addResults(failing, source);
    await reporter.endRun();

    const { server, url, apiKey } = await startTestServer({ failureDetails: false });
    const summary = await replaySpool({
      dir: spoolDir,
      apiKey,
      baseUrl: url,
      ignoreRecordedUrl: true,
      userAgent: 'testrun-test',
      env: {},
      log: () => {},
    });
    expect(summary).toMatchObject({ delivered: 2, remaining: 0 });
    const [run] = await server.store.runs();
    expect((await server.store.results(run!.id))[0]).not.toHaveProperty('details');
  });
});
