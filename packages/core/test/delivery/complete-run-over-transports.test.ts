import { replaySpool } from '@testrun/core';
import {
  closedPortUrl,
  createReporter,
  createReporterOver,
  makeResults,
  readSpoolLines,
  startTestServer,
  TRANSPORTS,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// The run's end is the one request that is not a POST: each transport sends the method it is given.
describe.each(TRANSPORTS)('completing a run over $name', (transport) => {
  it('sends PATCH once every batch is delivered, and the server stores how the run ended', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter, lines } = await createReporterOver(transport, url, apiKey, {
      completeRun: true,
      batchSize: 2,
    });
    reporter.startRun();
    reporter.addResults([...makeResults(3), { testSuite: 's', testCase: 'breaks', status: 'failed' }]);
    const summary = await reporter.endRun();

    expect(summary).toMatchObject({ delivered: 4, runEnd: { status: 'failed', state: 'sent' } });
    const routes = server.requests.map((request) => `${request.method} ${request.route}`);
    expect(routes.at(-1)).toBe('PATCH completeRun');
    expect(await server.store.endOf(summary!.runId!)).toMatchObject({ status: 'failed' });
    expect(lines.at(-1)).toMatch(/; run marked failed$/);
  });

  it('sends the end of a run that delivered nothing, once it was created', async () => {
    const { server, url, apiKey } = await startTestServer();
    const { reporter } = await createReporterOver(transport, url, apiKey, { completeRun: true });
    reporter.startRun();
    const summary = await reporter.endRun();
    expect(await server.store.endOf(summary!.runId!)).toMatchObject({ status: 'completed' });
  });
});

describe('a run whose service was down with completeRun', () => {
  it('spools its end behind its results, and a replay creates the run, delivers them, then completes it', async () => {
    const down = await closedPortUrl();
    const { reporter, spoolDir, lines } = createReporter(down, 'key-1', { completeRun: true, maxRetries: 0 });
    reporter.startRun();
    reporter.addResults(makeResults(3));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({
      runId: undefined,
      spooled: 3,
      runEnd: { status: 'completed', state: 'spooled' },
    });
    expect(readSpoolLines(spoolDir).map((line) => line.type)).toEqual(['run', 'batch', 'complete']);
    expect(lines.at(-1)).toMatch(
      /; 3 spooled to .*; the run's end \(completed\) waits in the spool with them$/,
    );

    const { server, url } = await startTestServer({ apiKey: 'key-1' });
    const replayed = await replaySpool({
      dir: spoolDir,
      apiKey: 'key-1',
      baseUrl: url,
      ignoreRecordedUrl: true,
      userAgent: 'testrun-test',
      log: () => {},
    });
    expect(replayed).toMatchObject({ delivered: 3, runsCompleted: 1, remaining: 0, errors: [] });
    const [run] = await server.store.runs();
    expect(await server.store.results(run!.id)).toHaveLength(3);
    expect(await server.store.endOf(run!.id)).toMatchObject({ status: 'completed' });
    expect(server.requests.map((request) => request.route)).toEqual([
      'createRun',
      'submitResults',
      'completeRun',
    ]);
  });

  it('says in one line when the service refuses a spooled end, and takes it out of the spool', async () => {
    const down = await closedPortUrl();
    const { reporter, spoolDir } = createReporter(down, 'key-1', { completeRun: true, maxRetries: 0 });
    reporter.startRun();
    await reporter.endRun();
    const { server, url } = await startTestServer({
      apiKey: 'key-1',
      faults: (r) => (r.route === 'completeRun' ? { status: 405 } : undefined),
    });
    const replay = () =>
      replaySpool({
        dir: spoolDir,
        apiKey: 'key-1',
        baseUrl: url,
        ignoreRecordedUrl: true,
        userAgent: 't',
        log: () => {},
      });
    const first = await replay();
    expect(first).toMatchObject({ runsCompleted: 0, endsRefused: 1 });
    expect(first.errors).toEqual([
      expect.stringMatching(/: the run could not be completed \(completed\): PATCH .* answered 405/),
    ]);
    expect(readSpoolLines(spoolDir)).toEqual([]);
    expect(await replay()).toMatchObject({ files: 0, errors: [] });
    expect(server.requests.filter((request) => request.route === 'completeRun')).toHaveLength(1);
  });
});

describe('a service that answers the end badly', () => {
  it('gets a 5xx asked again with the same idempotency key until the run is completed', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (r) => (r.route === 'completeRun' && r.n < 2 ? { status: 503 } : undefined),
    });
    const { reporter } = createReporter(url, apiKey);
    reporter.addResults(makeResults(2));
    const summary = await reporter.endRun();
    const attempts = server.requests.filter((request) => request.route === 'completeRun');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((attempt) => attempt.idempotencyKey)).size).toBe(1);
    expect(await server.store.endOf(summary!.runId!)).toMatchObject({ status: 'completed' });
  });

  it('that refuses it is said in one line, once; nothing waits in the spool and no result is lost', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (r) =>
        r.route === 'completeRun' ? { status: 422, body: { error: 'no such state' } } : undefined,
    });
    const { reporter, lines, spoolDir } = createReporter(url, apiKey);
    reporter.addResults(makeResults(2));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({
      delivered: 2,
      spooled: 0,
      runEnd: { status: 'completed', state: 'refused' },
    });
    expect(server.requests.filter((request) => request.route === 'completeRun')).toHaveLength(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^testrun: the run could not be completed: PATCH .* answered 422: .*no such state/,
    );
    expect(readSpoolLines(spoolDir)).toEqual([]);
  });

  it('that never takes it gets it from the spool: a replay completes the run with the same key', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: (r) => (r.route === 'completeRun' ? { status: 503 } : undefined),
    });
    const { reporter, lines, spoolDir } = createReporter(url, apiKey, { maxRetries: 1 });
    reporter.addResults(makeResults(2));
    const summary = await reporter.endRun();
    expect(lines.at(-1)).toMatch(
      /; the run's end \(completed\) spooled to .*\.ndjson: send it with `npx @testrun\/cli replay/,
    );
    expect(readSpoolLines(spoolDir).map((line) => line.type)).toEqual(['run', 'complete']);
    server.setFaults(undefined);
    const replayed = await replaySpool({
      dir: spoolDir,
      apiKey,
      baseUrl: url,
      userAgent: 't',
      log: () => {},
    });
    expect(replayed).toMatchObject({ runsCompleted: 1, errors: [] });
    expect(await server.store.endOf(summary!.runId!)).toMatchObject({ status: 'completed' });
    expect(readSpoolLines(spoolDir)).toEqual([]);
    const keys = server.requests.filter((r) => r.route === 'completeRun').map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(1);
  });
});
