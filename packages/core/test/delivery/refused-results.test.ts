import fs from 'node:fs';
import { replaySpool } from '@testrun/core';
import {
  closedPortUrl,
  createReporter,
  makeResults,
  readSpoolLines,
  refusingResults,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { MAX_BLIND_REFUSALS, MAX_NAMED_REFUSALS } from '../../src/delivery/refusals.js';

// A result a service refuses never holds back the others (docs/reliability.md;
// docs/design/delivery.md#400-the-result-at-fault): the rule is deliver-batch.test.ts's; here, what
// a run and a replay do with it against a real server: what is stored, spooled, said and counted.

const casesOf = (results: readonly { testCase: unknown }[]) => results.map((r) => String(r.testCase)).sort();

/** The lines of a run about refused results, in the order said. */
const refusedLines = (lines: readonly string[]) =>
  lines.filter((line) => line.includes('the service refused'));

describe('a result the service refuses, in a run', () => {
  it('is said in one line with the service message and not spooled; every other result is stored and the run completes', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: refusingResults((r) => r.testCase === 'case 13', 'results/0/testCase: this name is taken'),
    });
    const { reporter, lines, spoolDir } = createReporter(url, apiKey, { batchSize: 40 });
    const sent = makeResults(100);
    reporter.addResults(sent);
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 99, spooled: 0, refused: 1, failed: 0 });
    expect(casesOf(await server.store.results(summary!.runId!))).toEqual(
      casesOf(sent.filter((r) => r.testCase !== 'case 13')),
    );
    expect(readSpoolLines(spoolDir)).toEqual([]);
    expect(refusedLines(lines)).toEqual([
      expect.stringMatching(
        /^testrun: the service refused a result, which is not sent again: testSuite "suite.test.ts", testCase "case 13" \(status "passed", duration 6\): POST .* answered 400: .*this name is taken/,
      ),
    ]);
    expect(lines.at(-1)).toMatch(
      /^testrun: 99 results → run .*; run marked completed; 1 refused by the service \(see above\)$/,
    );
    expect(await server.store.endOf(summary!.runId!)).toMatchObject({ status: 'completed' });
  });

  it('names the first ten and counts the rest, when many are refused (a status the service does not take)', async () => {
    const { server, url, apiKey } = await startTestServer({ statuses: ['passed', 'failed'] });
    const { reporter, lines, spoolDir } = createReporter(url, apiKey, { batchSize: 24 });
    const sent = makeResults(48).map((r, i) => (i % 4 === 1 ? { ...r, status: 'skipped' as const } : r));
    reporter.addResults(sent);
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 36, spooled: 0, refused: 12 });
    expect(await server.store.results(summary!.runId!)).toHaveLength(36);
    expect(readSpoolLines(spoolDir)).toEqual([]);
    const said = refusedLines(lines);
    expect(said).toHaveLength(MAX_NAMED_REFUSALS + 1);
    expect(said.slice(0, -1).every((line) => line.includes('status "skipped"'))).toBe(true);
    expect(said.at(-1)).toBe(
      'testrun: the service refused more results than the 10 named above; they are not sent again, and the summary counts them',
    );
  });

  it('judges a result refused alone in its own batch once the service takes another of the run', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: refusingResults((r) => r.testCase === 'case 0'),
    });
    // One result a batch, the refused one first: nothing of the run was taken when it was refused.
    const { reporter, spoolDir } = createReporter(url, apiKey, { batchSize: 1, concurrency: 1 });
    reporter.addResults(makeResults(3));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 2, spooled: 0, refused: 1 });
    expect(casesOf(await server.store.results(summary!.runId!))).toEqual(['case 1', 'case 2']);
    expect(readSpoolLines(spoolDir)).toEqual([]);
  });

  it('is kept, with one line, when the service refuses every result whatever it holds: a bounded number of requests, all spooled', async () => {
    const { server, url, apiKey } = await startTestServer({
      faults: refusingResults(() => true, 'this run does not take results'),
    });
    const { reporter, lines, spoolDir } = createReporter(url, apiKey, { batchSize: 200 });
    reporter.addResults(makeResults(1_200));
    const summary = await reporter.endRun();
    expect(summary).toMatchObject({ delivered: 0, spooled: 1_200, refused: 0 });
    const spooled = readSpoolLines(spoolDir).flatMap((line) =>
      line.type === 'batch' ? (line.results as { testCase: string }[]) : [],
    );
    expect(casesOf(spooled)).toEqual(casesOf(makeResults(1_200)));
    const said = refusedLines(lines);
    expect(said).toEqual([
      expect.stringMatching(
        /^testrun: the service refused this run's results whatever they held .* answered 400: .*this run does not take results/,
      ),
    ]);
    // The search, then one request for each of the other five batches.
    const submits = server.requests.filter((request) => request.route === 'submitResults');
    expect(submits.length).toBeLessThanOrEqual(MAX_BLIND_REFUSALS + 1 + 5);
  });
});

describe('a result the service refuses, in a replay', () => {
  it('is said in one line and leaves the spool; every other spooled result is delivered and the run completed', async () => {
    const down = await closedPortUrl();
    const { reporter, spoolDir } = createReporter(down, 'key-1', { maxRetries: 0, batchSize: 20 });
    reporter.addResults(makeResults(50));
    expect(await reporter.endRun()).toMatchObject({ spooled: 50, runEnd: { state: 'spooled' } });

    const { server, url } = await startTestServer({
      apiKey: 'key-1',
      faults: refusingResults((r) => r.testCase === 'case 42', 'results/0: not today'),
    });
    const logged: string[] = [];
    const replay = () =>
      replaySpool({
        dir: spoolDir,
        apiKey: 'key-1',
        baseUrl: url,
        ignoreRecordedUrl: true,
        userAgent: 't',
        log: (line) => logged.push(line),
      });
    const summary = await replay();
    expect(summary).toMatchObject({
      delivered: 49,
      remaining: 0,
      runsCompleted: 1,
      refused: { results: 1, lines: 1 },
    });
    expect(summary.errors).toEqual([
      expect.stringMatching(
        /\.ndjson: the service refused a result, which is not sent again: testSuite "suite.test.ts", testCase "case 42" .* answered 400: .*not today/,
      ),
    ]);
    expect(logged).toEqual(summary.errors);
    expect(fs.readdirSync(spoolDir)).toEqual([]);
    const [run] = await server.store.runs();
    expect(casesOf(await server.store.results(run!.id))).toEqual(
      casesOf(makeResults(50).filter((r) => r.testCase !== 'case 42')),
    );
    expect(await server.store.endOf(run!.id)).toMatchObject({ status: 'completed' });
    expect(await replay()).toMatchObject({ files: 0, delivered: 0, remaining: 0 });
  });

  it('keeps what the service refuses whatever it holds, with one line', async () => {
    const down = await closedPortUrl();
    const { reporter, spoolDir } = createReporter(down, 'key-1', { maxRetries: 0, batchSize: 10 });
    reporter.addResults(makeResults(30));
    await reporter.endRun();
    const { url } = await startTestServer({ apiKey: 'key-1', faults: refusingResults(() => true, 'closed') });
    const summary = await replaySpool({
      dir: spoolDir,
      apiKey: 'key-1',
      baseUrl: url,
      ignoreRecordedUrl: true,
      userAgent: 't',
      log: () => {},
    });
    expect(summary).toMatchObject({ delivered: 0, remaining: 30, refused: { results: 0, lines: 0 } });
    expect(summary.errors).toEqual([
      expect.stringMatching(/: the service refused this run's results whatever they held .*closed/),
    ]);
    const batches = readSpoolLines(spoolDir).filter((line) => line.type === 'batch');
    expect(batches.flatMap((line) => line.results as unknown[])).toHaveLength(30);
  });
});
