import { formatRunHandle, replaySpool } from '@testrun/core';
import {
  closedPortUrl,
  createReporter,
  makeResults,
  readSpoolLines,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// completeRun 'auto', the default: the process that created a run completes it where create-run's
// answer announced `complete-run`, and sends nothing more than the spec's two operations elsewhere.

const failing = { testSuite: 's', testCase: 'breaks', status: 'failed' as const };

describe("completeRun 'auto' (the default)", () => {
  it('completes the run it created where the service announced it: completed, or failed when a test failed', async () => {
    const { server, url, apiKey } = await startTestServer();
    const green = createReporter(url, apiKey);
    green.reporter.addResults(makeResults(2));
    const red = createReporter(url, apiKey);
    red.reporter.addResults([...makeResults(2), failing]);
    const [greenRun, redRun] = await Promise.all([green.reporter.endRun(), red.reporter.endRun()]);
    expect(await server.store.endOf(greenRun!.runId!)).toMatchObject({ status: 'completed' });
    expect(await server.store.endOf(redRun!.runId!)).toMatchObject({ status: 'failed' });
    expect(green.lines.at(-1)).toMatch(/; run marked completed$/);
  });

  it('sends a service that announces nothing the spec alone: no completion, byte for byte the requests of before', async () => {
    const { server, url, apiKey } = await startTestServer({
      failureDetails: false,
      completeRun: false,
      quarantine: false,
    });
    const { reporter, lines, spoolDir } = createReporter(url, apiKey, { batchSize: 2 });
    reporter.addResults([...makeResults(2), failing]);
    const summary = await reporter.endRun();
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/v1/runs',
      `POST /api/v1/runs/${summary!.runId}/results`,
      `POST /api/v1/runs/${summary!.runId}/results`,
    ]);
    expect(summary!.runEnd).toBeUndefined();
    expect(lines.at(-1)).not.toMatch(/run marked|run's end/);
    expect(readSpoolLines(spoolDir)).toEqual([]);
  });

  it('ends the run as the runner says beside its results: failed with a failed result saying why, or interrupted', async () => {
    const { server, url, apiKey } = await startTestServer();
    const failed = createReporter(url, apiKey);
    failed.reporter.addResults(makeResults(1));
    const disconnected = createReporter(url, apiKey);
    disconnected.reporter.addResults(makeResults(1));
    const interrupted = createReporter(url, apiKey);
    interrupted.reporter.addResults(makeResults(1));
    const [a, b, c] = await Promise.all([
      failed.reporter.endRun([], { failed: true }),
      disconnected.reporter.endRun([], { why: ['The Chrome browser disconnected.\n2 tests never ended'] }),
      interrupted.reporter.endRun([], { interrupted: true, failed: true }),
    ]);
    expect(await server.store.endOf(a!.runId!)).toMatchObject({ status: 'failed' });
    expect(await server.store.endOf(b!.runId!)).toMatchObject({ status: 'failed' });
    expect(await server.store.endOf(c!.runId!)).toMatchObject({ status: 'interrupted' });
    const runResults = async (runId: string | undefined) =>
      (await server.store.results(runId!)).filter((result) => result.testSuite === '(run)');
    expect(await runResults(a!.runId)).toMatchObject([
      {
        testCase:
          '(unhandled error) vitest failed the run outside its tests and gave no error for it; its output says why',
        status: 'failed',
      },
    ]);
    expect(await runResults(b!.runId)).toMatchObject([
      {
        testCase: '(unhandled error) The Chrome browser disconnected.',
        status: 'failed',
        details: { message: 'The Chrome browser disconnected.\n2 tests never ended' },
      },
    ]);
    expect(await runResults(c!.runId)).toEqual([]);
  });

  it('never completes a run it was handed (a shard): the job after the shards does', async () => {
    const { server, url, apiKey } = await startTestServer();
    const creator = createReporter(url, apiKey, { completeRun: false });
    creator.reporter.startRun();
    const { runId } = (await creator.reporter.endRun())!;
    const handle = formatRunHandle(runId!, ['failure-details', 'complete-run']);
    const shard = createReporter(url, apiKey, {}, { TESTRUN_RUN_ID: handle });
    shard.reporter.addResults([failing]);
    const summary = await shard.reporter.endRun();
    expect(summary).toMatchObject({ runId, delivered: 1, runEnd: undefined });
    expect(server.requests.filter((request) => request.route === 'completeRun')).toEqual([]);
  });

  it('sends a shard why its tests failed where the handle says the service takes it, and not where it does not', async () => {
    const { server, url, apiKey } = await startTestServer();
    const created = createReporter(url, apiKey, { completeRun: false });
    created.reporter.startRun();
    const { runId } = (await created.reporter.endRun())!;
    const failure = { ...failing, failure: { errors: [new Error('expected 1 to be 2')] } };
    for (const [testCase, handle] of [
      ['told', formatRunHandle(runId!, ['failure-details'])],
      ['bare', runId!],
    ] as const) {
      const shard = createReporter(url, apiKey, {}, { TESTRUN_RUN_ID: handle });
      shard.reporter.addResults([{ ...failure, testCase }]);
      await shard.reporter.endRun();
    }
    const stored = await server.store.results(runId!);
    expect(stored.find((result) => result.testCase === 'told')?.details).toMatchObject({
      message: 'expected 1 to be 2',
    });
    expect(stored.find((result) => result.testCase === 'bare')).not.toHaveProperty('details');
  });

  it('spools the end of a run the service was down for, and replay sends it only where its answer announces it', async () => {
    const down = await closedPortUrl();
    const spooled = () => {
      const { reporter, spoolDir } = createReporter(down, 'key-1', { maxRetries: 0 });
      reporter.addResults(makeResults(2));
      return reporter.endRun().then((summary) => ({ summary, spoolDir }));
    };
    const [toAnnouncing, toSpecOnly] = await Promise.all([spooled(), spooled()]);
    expect(toAnnouncing.summary).toMatchObject({
      spooled: 2,
      runEnd: { status: 'completed', state: 'spooled' },
    });
    expect(readSpoolLines(toAnnouncing.spoolDir).at(-1)).toMatchObject({
      type: 'complete',
      ifAnnounced: true,
    });

    const replay = (dir: string, url: string) =>
      replaySpool({
        dir,
        apiKey: 'key-1',
        baseUrl: url,
        ignoreRecordedUrl: true,
        userAgent: 't',
        log: () => {},
      });
    const announcing = await startTestServer({ apiKey: 'key-1' });
    expect(await replay(toAnnouncing.spoolDir, announcing.url)).toMatchObject({
      delivered: 2,
      runsCompleted: 1,
    });
    const [run] = await announcing.server.store.runs();
    expect(await announcing.server.store.endOf(run!.id)).toMatchObject({ status: 'completed' });

    const specOnly = await startTestServer({ apiKey: 'key-1', completeRun: false });
    expect(await replay(toSpecOnly.spoolDir, specOnly.url)).toMatchObject({
      delivered: 2,
      runsCompleted: 0,
      remaining: 0,
      errors: [],
    });
    expect(specOnly.server.requests.map((request) => request.route)).toEqual(['createRun', 'submitResults']);
    expect(readSpoolLines(toSpecOnly.spoolDir)).toEqual([]);
  });
});
