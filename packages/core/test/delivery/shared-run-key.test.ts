import fs from 'node:fs';
import { RunReporter, replaySpool } from '@testrun/core';
import {
  closedPortUrl,
  createReporter,
  makeResults,
  readSpoolLines,
  startTestServer,
  tempDir,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// Processes of one test run that each create the run (WebdriverIO's workers when the launcher
// service could not) name one run when given one create-run key: `runKey`, TESTRUN_RUN_KEY.

const RUN_KEY = 'wdio-run-4d1e7a52-0c55-4c1b-9f6e-2b1f0f3a9d10';

/** A reporter of `suite`'s `count` results with the shared key, ended. */
async function reportWithKey(url: string, apiKey: string, spoolDir: string, suite: string, count: number) {
  const { reporter } = createReporter(url, apiKey, {
    runKey: RUN_KEY,
    spoolDir,
    flushTimeout: 300,
    completeRun: true,
  });
  reporter.startRun();
  reporter.addResults(makeResults(count, suite));
  const summary = await reporter.endRun();
  if (!summary) throw new Error('the reporter was not active');
  return summary;
}

function casesOf(stored: readonly { testSuite: string; testCase: string }[]): string[] {
  return stored.map((result) => `${result.testSuite} › ${result.testCase}`).sort();
}

const expectedCases = [
  ...makeResults(3, 'a.spec.ts').map((result) => `a.spec.ts › ${result.testCase}`),
  ...makeResults(4, 'b.spec.ts').map((result) => `b.spec.ts › ${result.testCase}`),
].sort();

describe('a run key shared by several reporters', () => {
  it('spools the same create-run, key and body, from each reporter while the service is down', async () => {
    const deadUrl = await closedPortUrl();
    const spoolDir = tempDir('testrun-run-key-');
    await reportWithKey(deadUrl, 'some-key', spoolDir, 'a.spec.ts', 3);
    await reportWithKey(deadUrl, 'some-key', spoolDir, 'b.spec.ts', 4);

    expect(fs.readdirSync(spoolDir).filter((name) => name.endsWith('.ndjson'))).toHaveLength(2);
    const runRecords = readSpoolLines(spoolDir).filter((line) => line.type === 'run');
    expect(runRecords).toHaveLength(2);
    expect(runRecords.map((record) => record.idempotencyKey)).toEqual([RUN_KEY, RUN_KEY]);
    expect(runRecords[0]!.run).toEqual(runRecords[1]!.run);
    // Neither knows whether it is the last of the run's processes: neither completes it.
    expect(readSpoolLines(spoolDir).filter((line) => line.type === 'complete')).toEqual([]);
  });

  it('makes exactly one run of both spool files at replay, every result once', async () => {
    const deadUrl = await closedPortUrl();
    const spoolDir = tempDir('testrun-run-key-');
    const first = await reportWithKey(deadUrl, 'some-key', spoolDir, 'a.spec.ts', 3);
    const second = await reportWithKey(deadUrl, 'some-key', spoolDir, 'b.spec.ts', 4);
    expect([first.spooled, second.spooled]).toEqual([3, 4]);

    const { server, url, apiKey } = await startTestServer();
    const summary = await replaySpool({
      dir: spoolDir,
      apiKey,
      baseUrl: url,
      ignoreRecordedUrl: true,
      userAgent: 'testrun-test',
      log: () => {},
    });
    expect(summary).toMatchObject({ files: 2, delivered: 7, remaining: 0, errors: [] });

    const runs = await server.store.runs();
    expect(runs).toHaveLength(1);
    expect(casesOf(await server.store.results(runs[0]!.id))).toEqual(expectedCases);

    // A second replay finds nothing; the key would name the same run again anyway.
    const again = await replaySpool({
      dir: spoolDir,
      apiKey,
      baseUrl: url,
      userAgent: 'testrun-test',
      log: () => {},
    });
    expect(again.delivered).toBe(0);
    expect(await server.store.runs()).toHaveLength(1);
  });

  it('names one run live too, when the reporters create it at the same time', async () => {
    const { server, url, apiKey } = await startTestServer();
    const spoolDir = tempDir('testrun-run-key-');
    const [first, second] = await Promise.all([
      reportWithKey(url, apiKey, spoolDir, 'a.spec.ts', 3),
      reportWithKey(url, apiKey, spoolDir, 'b.spec.ts', 4),
    ]);
    expect(first.runId).toBeDefined();
    expect(second.runId).toBe(first.runId);
    expect(await server.store.runs()).toHaveLength(1);
    expect(casesOf(await server.store.results(first.runId!))).toEqual(expectedCases);
  });

  it('without a key, two reporters make two runs', async () => {
    const { server, url, apiKey } = await startTestServer();
    for (const suite of ['a.spec.ts', 'b.spec.ts']) {
      const { reporter } = createReporter(url, apiKey);
      reporter.startRun();
      reporter.addResults(makeResults(1, suite));
      await reporter.endRun();
    }
    expect(await server.store.runs()).toHaveLength(2);
  });
});

describe('a run key used twice (a constant in a CI config, an id a re-run keeps)', () => {
  it('says so in one line when create-run is answered from the key’s earlier use; the results join that run', async () => {
    const { server, url, apiKey } = await startTestServer();
    const env = { TESTRUN_RUN_KEY: 'ci-run-1234' };
    const first = createReporter(url, apiKey, {}, env);
    first.reporter.addResults(makeResults(3));
    const firstRun = await first.reporter.endRun();
    expect(first.lines.filter((line) => line.includes('was used before'))).toEqual([]);

    const again = createReporter(url, apiKey, {}, env);
    again.reporter.addResults(makeResults(3));
    const secondRun = await again.reporter.endRun();
    expect(secondRun!.runId).toBe(firstRun!.runId);
    expect(again.lines.filter((line) => line.includes('was used before'))).toEqual([
      `testrun: the run key (TESTRUN_RUN_KEY) was used before: the service answered with the run it created then, ${firstRun!.runId}, so these results join it. Give each run, and each attempt of a CI job, a key of its own (docs/ci.md, "A run key").`,
    ]);
    expect(await server.store.results(firstRun!.runId!)).toHaveLength(6);
  });

  it('says nothing where processes share the key by design (WebdriverIO’s workers)', async () => {
    const { url, apiKey } = await startTestServer();
    const worker = (lines: string[]) =>
      new RunReporter({
        options: {
          apiKey,
          baseUrl: url,
          runKey: 'wdio-run-key',
          ciTags: false,
          project: 'p',
          spoolDir: tempDir('testrun-spool-'),
        },
        framework: { name: 'webdriverio', version: '9.0.0' },
        rootDir: process.cwd(),
        env: {},
        sharesRunKey: true,
        write: (text) => lines.push(text),
      });
    const firstLines: string[] = [];
    const secondLines: string[] = [];
    for (const lines of [firstLines, secondLines]) {
      const reporter = worker(lines);
      reporter.addResults(makeResults(1));
      await reporter.endRun();
    }
    expect([...firstLines, ...secondLines].filter((line) => line.includes('was used before'))).toEqual([]);
  });
});
