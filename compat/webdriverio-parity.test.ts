import fs from 'node:fs';
import path from 'node:path';
import {
  cleanEnv,
  type ExpectedResult,
  identities,
  MOCHA_PARITY_RESULTS,
  missingBrowser,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  readSpoolLines,
  reporterEnv,
  resultsIn,
  resultsTagged,
  runCli,
  runCucumber,
  runWdio,
  seededFaults,
  shownState,
  startTestServer,
  type TestServer,
  tempDir,
  testrunLines,
  WDIO_AWAIT_RUNS_TIMEOUT_MS,
  WDIO_PARITY_RESULTS,
  WDIO_TWO_WORKER_RESULTS,
  webdriverioFixtures,
} from '@testrun/test-utils';
import { readSummary } from '@testrun/test-utils/gfm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The shared fixtures' Mocha files (the parity fixture, the streaming fixture) through real
// `wdio run`s of WebdriverIO's Mocha framework against a real server. WebdriverIO starts a
// browser session in every worker even for tests that need none: the configs
// (fixtures/webdriverio/shared) put the files that can share a worker in one.

const missing = missingBrowser();
if (missing) console.warn(`skipping the WebdriverIO parity tests: ${missing}`);

/**
 * A run's output, for a failed assertion's message, without the stack frames WebdriverIO
 * prints: Vitest reads a message's frames for source maps, and one of WebdriverIO's files
 * has a map it cannot parse, which hides the assertion behind an error of its own.
 */
const output = (run: RunOutcome) => `${run.stdout}\n${run.stderr}`.replace(/^\s+at .*$/gm, '');
const { parity, streaming } = webdriverioFixtures;

const key = (result: { testSuite: string; testCase: string; status: string }) =>
  `${result.testSuite}\n${result.testCase}\n${result.status}`;

describe.skipIf(missing)('the parity fixture, run under WebdriverIO’s Mocha framework', () => {
  let server: TestServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    outcome = await runWdio({
      ...parity,
      env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS, TESTRUN_TAGS: 'parity' }),
    });
  }, WDIO_AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it("stores Mocha's parity results, with WebdriverIO's own verdict for a failed before hook", async () => {
    expect(identities(await resultsTagged(server, 'parity')), output(outcome)).toEqual(
      identities(WDIO_PARITY_RESULTS),
    );
    // Where it differs from Mocha: the tests a failed `before` prevented and their files, and
    // the test declared before a describe body threw.
    const notIn = (list: readonly ExpectedResult[], others: readonly ExpectedResult[]) => {
      const kept = new Set(others.map(key));
      return identities(list.filter((result) => !kept.has(key(result))));
    };
    expect(notIn(MOCHA_PARITY_RESULTS, WDIO_PARITY_RESULTS)).toEqual(
      identities(
        resultsIn('setup-fails.test.js', [
          ['database > reads a row', 'failed'],
          ['database > writes a row', 'failed'],
        ]).concat(
          resultsIn('setup-fails-at-top.test.js', [
            ['needs the setup', 'failed'],
            ['a block > needs it too', 'failed'],
          ]),
        ),
      ),
    );
    expect(notIn(WDIO_PARITY_RESULTS, MOCHA_PARITY_RESULTS)).toEqual(
      identities([
        ...resultsIn('describe-throws.test.js', [
          ['a describe whose body throws > is declared before the throw', 'passed'],
        ]),
        ...resultsIn('setup-fails.test.js', [['(file failed to run)', 'failed']]),
        ...resultsIn('setup-fails-at-top.test.js', [['(file failed to run)', 'failed']]),
      ]),
    );
  });

  it('stores them in one run, created by the launcher service', async () => {
    const runs = await server.server.store.runs();
    expect(runs.map((run) => run.project)).toEqual(['parity']);
    expect(runs[0]!.framework).toBe('webdriverio');
  });

  // WebdriverIO exits 1 when a spec file fails, as the fixture's do on purpose (a run without
  // the reporter, compared here before, always did): the reporter leaves it so.
  it('leaves the exit code as WebdriverIO gives it, and never prints the key', () => {
    expect(outcome.code, output(outcome)).toBe(1);
    expect(output(outcome)).not.toContain(server.apiKey);
  });
});

describe.skipIf(missing)('the parity fixture under WebdriverIO, the service up but misbehaving', () => {
  it(
    'stores every result once through 5xx, dropped connections and a 429, exit code unchanged',
    async () => {
      const flaky = seededFaults({ seed: 7, rates: { status5xx: 0.25, drop: 0.1 } });
      const server = await startTestServer({
        faults: (request) => {
          if (request.route === 'submitResults' && request.n === 0) {
            return { status: 429, headers: { 'retry-after': '1' } };
          }
          return flaky(request);
        },
        maxResultsPerRequest: 5,
      });
      const options = { maxRetries: 12, requestTimeout: 400, batchSize: 5 };
      const outcome = await runWdio({
        ...parity,
        // Retries through 5xx, drops and a 429 outlast WebdriverIO's default 5 s wait for a
        // worker's reporters on a loaded machine (a CI run saw the worker spool 5 results).
        env: reporterEnv(server, {
          [REPORTER_OPTIONS_VAR]: JSON.stringify(options),
          FIXTURE_REPORTER_SYNC_TIMEOUT: '60000',
          FIXTURE_TWO_WORKERS: '1',
        }),
      });
      const runs = await server.server.store.runs();
      expect(runs, output(outcome)).toHaveLength(1);
      expect(identities(await server.server.store.results(runs[0]!.id)), output(outcome)).toEqual(
        identities(WDIO_TWO_WORKER_RESULTS),
      );
      const statuses = server.server.requests.map((request) => request.status);
      expect(statuses).toContain(429);
      expect(statuses.some((status) => typeof status === 'number' && status >= 500)).toBe(true);
      expect(outcome.code).toBe(1);
      server.close();
    },
    WDIO_AWAIT_RUNS_TIMEOUT_MS,
  );

  it(
    'spools what it could not deliver without retries, and a replay stores every result once',
    async () => {
      // Faults until the run is over, none for the replay: results lost on the way in (a drop
      // after the server stored them) and results never sent both reach the run exactly once.
      let faulty = true;
      const flaky = seededFaults({ seed: 11, rates: { status5xx: 0.4, drop: 0.3 } });
      const server = await startTestServer({
        faults: (request) => (faulty ? flaky(request) : undefined),
        maxResultsPerRequest: 5,
      });
      const options = { maxRetries: 0, requestTimeout: 400, batchSize: 5 };
      const env = reporterEnv(server, {
        [REPORTER_OPTIONS_VAR]: JSON.stringify(options),
        FIXTURE_TWO_WORKERS: '1',
      });
      const outcome = await runWdio({ ...parity, env });
      expect(outcome.code, output(outcome)).toBe(1);
      const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
      expect(spooled.length, output(outcome)).toBeGreaterThan(0);
      expect(testrunLines(output(outcome))).toContainEqual(expect.stringMatching(/spooled to /));

      faulty = false;
      const replay = await runCli(['replay', '--dir', env.TESTRUN_SPOOL_DIR!], { env: cleanEnv(env) });
      expect(replay.code, replay.stderr).toBe(0);
      const runs = await server.server.store.runs();
      expect(runs, output(outcome)).toHaveLength(1);
      expect(identities(await server.server.store.results(runs[0]!.id))).toEqual(
        identities(WDIO_TWO_WORKER_RESULTS),
      );
      server.close();
    },
    WDIO_AWAIT_RUNS_TIMEOUT_MS,
  );
});

describe.skipIf(missing)('WebdriverIO streaming while tests run', () => {
  it(
    'delivers the results of a finished worker while another worker still runs, and the launcher completes the passed run',
    async () => {
      // A run nobody completed reads abandoned at once: one that reads completed was ended.
      const server = await startTestServer({ abandonedAfterMs: 1 });
      const summary = path.join(tempDir('testrun-wdio-summary-'), 'summary.md');
      const outcome = await runWdio({
        ...streaming,
        env: reporterEnv(server, { GITHUB_STEP_SUMMARY: summary }),
      });
      // last.test.js passes only if it sees the fast files' nine results on the server.
      expect(outcome.code, output(outcome)).toBe(0);
      const [run] = await server.server.store.runs();
      const stored = await server.server.store.results(run!.id);
      expect(stored.find((result) => result.testSuite === 'last.test.js')).toMatchObject({
        testCase: 'sees the results of the other files on the server',
        status: 'passed',
      });
      expect(stored).toHaveLength(10);
      expect(await shownState(server, run!.id)).toEqual({ api: 'completed', page: 'completed' });
      expect(testrunLines(output(outcome))).toContain(`testrun: run ${run!.id} marked completed`);
      // The launcher, which ended the run, wrote its CI summary: the whole run, read back.
      expect(readSummary(fs.readFileSync(summary, 'utf8'))).toMatchObject({
        heading: `✅ ${run!.project} · webdriverio: completed`,
        counts: { passed: 10, tests: 10 },
      });
      server.close();
    },
    WDIO_AWAIT_RUNS_TIMEOUT_MS,
  );
});

describe.skipIf(missing)(
  'one Cucumber fixture, run by cucumber-js and by WebdriverIO’s Cucumber framework',
  () => {
    const cwd = webdriverioFixtures.cucumberParity;
    let server: TestServer;
    let wdio: RunOutcome;
    let cucumber: RunOutcome;

    /** What a run stored, as a reader compares two: name, status, and where a failure happened. */
    const stored = async (tag: string) =>
      (await resultsTagged(server, tag))
        .map((result) => [result.testSuite, result.testCase, result.status, result.details?.location ?? ''])
        .sort();

    beforeAll(async () => {
      // A run nobody completed reads abandoned at once: one that reads failed was ended.
      server = await startTestServer({ abandonedAfterMs: 1 });
      [wdio, cucumber] = await Promise.all([
        runWdio({ cwd, env: reporterEnv(server, { TESTRUN_TAGS: 'wdio' }) }),
        runCucumber({ cwd, env: reporterEnv(server, { TESTRUN_TAGS: 'cucumber' }) }),
      ]);
    }, WDIO_AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it('stores what @testrun/cucumber stores: repeated names told apart, outline examples, a Rule, the failed step’s line', async () => {
      const expected = [
        [
          'features/background.feature',
          'a failing background > never gets to its own step',
          'failed',
          'features/background.feature:4',
        ],
        [
          'features/background.feature',
          'a failing background > nor does this one',
          'failed',
          'features/background.feature:4',
        ],
        ['features/repeats.feature', 'repeats > adds 1 and 1 > Example #1.1', 'passed', ''],
        [
          'features/repeats.feature',
          'repeats > adds 2 and 2 > Example #1.2',
          'failed',
          'features/repeats.feature:13',
        ],
        ['features/repeats.feature', 'repeats > adds 3 and 3 > Example #2.1', 'passed', ''],
        ['features/repeats.feature', 'repeats > carrying > counts', 'passed', ''],
        ['features/repeats.feature', 'repeats > counts', 'passed', ''],
        ['features/repeats.feature', 'repeats > counts (2)', 'passed', ''],
        ['features/repeats.feature', 'repeats > counts (3)', 'failed', 'features/repeats.feature:10'],
        [
          'features/unfinished.feature',
          'unfinished steps > has a step nobody wrote',
          'failed',
          'features/unfinished.feature:4',
        ],
        [
          'features/unfinished.feature',
          'unfinished steps > has a step still pending',
          'failed',
          'features/unfinished.feature:7',
        ],
      ].sort();
      expect(await stored('cucumber'), output(cucumber)).toEqual(expected);
      expect(await stored('wdio'), output(wdio)).toEqual(expected);
    });

    it('stores why every failed scenario failed, under both', async () => {
      const failed = [
        ...(await resultsTagged(server, 'wdio')),
        ...(await resultsTagged(server, 'cucumber')),
      ].filter((result) => result.status === 'failed');
      expect(failed).toHaveLength(12);
      expect(
        failed.filter((result) => !result.details?.message?.trim()).map((result) => result.testCase),
      ).toEqual([]);
    });

    it('keeps both exit codes, and ends both runs as failed: the launcher completes the one wdio made', async () => {
      expect([wdio.code, cucumber.code]).toEqual([1, 1]);
      for (const run of await server.server.store.runs()) {
        expect(await shownState(server, run.id), run.framework).toEqual({ api: 'failed', page: 'failed' });
      }
    });
  },
);
