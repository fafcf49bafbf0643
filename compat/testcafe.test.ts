import {
  closedPortUrl,
  identities,
  misbehavingFaults,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  readSpoolLines,
  replayInto,
  reporterEnv,
  runTestCafe,
  shownState,
  startTestServer,
  TESTCAFE_QUARANTINE,
  TESTCAFE_RESULTS,
  TESTCAFE_RUN_TIMEOUT_MS,
  TESTCAFE_TWO_BROWSER_RESULTS,
  TESTCAFE_TWO_BROWSERS,
  type TestServer,
  testcafeBrowserMissing,
  testrunLines,
  untilTestCafeOpensItsBrowsers,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Real `testcafe` processes (TestCafe 3, its plugin `testcafe-reporter-testrun` loaded by
// `-r spec,testrun`, or in code from a configuration file) in Debian's headless Chromium,
// reporting into a real server: what it stored, and TestCafe's exit code (the number of tests
// that failed) and console output as without the reporter. The mapping's every rule:
// packages/testcafe/test/map-events.test.ts.

const missing = testcafeBrowserMissing();
if (missing) console.warn(`skipping the TestCafe tests: ${missing}`);

type Stored = { testSuite: string; testCase: string; status: string };

function spooled(dir: string): Stored[] {
  return readSpoolLines(dir)
    .filter((line) => line.type === 'batch')
    .flatMap((line) => line.results as Stored[]);
}

/** What one browser stores with todo as skipped: no label (one browser is one project). */
const ONE_BROWSER = TESTCAFE_RESULTS;

describe.skipIf(missing)('testcafe in two browsers, in quarantine mode, with -r spec,testrun', () => {
  let server: TestServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    // A run nobody completed reads abandoned at once: one that reads failed was ended by its reporter.
    ({ server, outcome } = await untilTestCafeOpensItsBrowsers(async () => {
      const server = await startTestServer({ abandonedAfterMs: 1 });
      const outcome = await runTestCafe({
        browsers: TESTCAFE_TWO_BROWSERS,
        args: ['tests/', ...TESTCAFE_QUARANTINE],
        env: reporterEnv(server),
      });
      return { server, outcome };
    }));
  }, TESTCAFE_RUN_TIMEOUT_MS);
  afterAll(() => server?.close());

  it("stores each test once per browser, labelled by it, with TestCafe's verdicts, in one run", async () => {
    const runs = await server.server.store.runs();
    const output = outcome.stdout + outcome.stderr;
    expect(
      runs.map(({ framework }) => framework),
      output,
    ).toEqual(['testcafe']);
    expect(identities(await server.server.store.results(runs[0]!.id)), output).toEqual(
      identities(TESTCAFE_TWO_BROWSER_RESULTS),
    );
    expect(await shownState(server, runs[0]!.id)).toEqual({ api: 'failed', page: 'failed' });
  });

  it('says why a test failed, after how many attempts, and how many a flaky one needed', async () => {
    const stored = await server.server.store.allResults();
    const inFirst = (testCase: string) =>
      stored.find(
        (result) =>
          result.testSuite === '[chromium:headless] tests/cart.test.js' && result.testCase === testCase,
      );
    expect(inFirst('cart > applies a coupon')?.details).toMatchObject({
      message: expect.stringMatching(/^AssertionError: expected 9 to deeply equal 8/),
      location: 'tests/cart.test.js:12:26',
      attempts: 3,
    });
    expect(inFirst('cart > opens the checkout')?.details?.message).toMatch(
      /^Failed to load the page at "http:\/\/127\.0\.0\.1:9\/checkout"/,
    );
    expect(inFirst('cart > keeps the basket on reload')?.details).toEqual({ attempts: 2 });
  });

  it("keeps TestCafe's exit code (the tests that failed) and its spec output, and adds one summary line", () => {
    const output = outcome.stdout + outcome.stderr;
    expect(outcome.stdout).toMatch(/2\/5 failed/);
    expect(outcome.code, output).toBe(2);
    expect(testrunLines(output)).toEqual([expect.stringMatching(/^testrun: 14 results → run \S+/)]);
  });
});

describe.skipIf(missing)('testcafe with the reporter in a configuration file', () => {
  it(
    'stores every result once through 5xx, dropped connections and a 429, exit code unchanged',
    async () => {
      const options = { maxRetries: 12, requestTimeout: 400, batchSize: 2, project: 'in-code' };
      const { server, outcome } = await untilTestCafeOpensItsBrowsers(async () => {
        const server = await startTestServer({ faults: misbehavingFaults() });
        const outcome = await runTestCafe({
          args: ['tests/', ...TESTCAFE_QUARANTINE],
          inConfigFile: true,
          env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: JSON.stringify(options) }),
        });
        return { server, outcome };
      });
      const output = outcome.stdout + outcome.stderr;
      const runs = await server.server.store.runs();
      expect(
        runs.map(({ project }) => project),
        output,
      ).toEqual(['in-code']);
      expect(identities(await server.server.store.results(runs[0]!.id)), output).toEqual(
        identities(ONE_BROWSER),
      );
      expect(server.server.requests.map((request) => request.status)).toContain(429);
      expect(outcome.code).toBe(2);
    },
    TESTCAFE_RUN_TIMEOUT_MS,
  );

  it(
    'spools what a service it cannot reach did not take, never prints the key, fails a passing run with failOnError; a replay stores it once',
    async () => {
      const apiKey = 'testcafe-secret-key-7d2a90';
      // The account file passes: TestCafe alone exits 0.
      const { env, outcome } = await untilTestCafeOpensItsBrowsers(async () => {
        const env = reporterEnv(
          { url: await closedPortUrl(), apiKey },
          {
            TESTRUN_DEBUG: '1',
            [REPORTER_OPTIONS_VAR]: JSON.stringify({ flushTimeout: 2000, failOnError: true }),
          },
        );
        const outcome = await runTestCafe({ args: ['tests/account.test.js'], inConfigFile: true, env });
        return { env, outcome };
      });
      const output = outcome.stdout + outcome.stderr;
      const account = ONE_BROWSER.filter(({ testSuite }) => testSuite === 'tests/account.test.js');
      expect(identities(spooled(env.TESTRUN_SPOOL_DIR!)), output).toEqual(identities(account));
      expect(testrunLines(output)).toContainEqual(
        expect.stringMatching(
          /^testrun: failing the test run because failOnError is set: 2 of 2 results not delivered/,
        ),
      );
      expect(outcome.code).toBe(1);
      expect(output).toContain('ECONNREFUSED');
      expect(output).not.toContain(apiKey);

      const { server, replayed } = await replayInto(env.TESTRUN_SPOOL_DIR!, apiKey);
      expect(replayed.stderr).toBe('');
      expect(identities(await server.server.store.allResults())).toEqual(identities(account));
    },
    TESTCAFE_RUN_TIMEOUT_MS,
  );
});

it.skipIf(missing)(
  'leaves a failed result of the run when a browser does not start, spooled on the way out; the exit code is TestCafe’s',
  async () => {
    const server = await startTestServer();
    const env = reporterEnv(server);
    // A "browser" that exits at once: TestCafe gives up on it after --browser-init-timeout.
    const outcome = await runTestCafe({
      browsers: 'chromium:/bin/false:headless',
      args: ['tests/account.test.js', '--browser-init-timeout', '3000'],
      env,
    });
    const output = outcome.stdout + outcome.stderr;
    expect(output).toContain('Cannot establish one or more browser connections');
    expect(outcome.code).toBe(1);
    expect(identities(spooled(env.TESTRUN_SPOOL_DIR!)), output).toEqual(
      identities([
        {
          testSuite: '(run)',
          testCase:
            '(unhandled error) TestCafe ended before it ran any test: a browser that did not start, or a test file that did not compile (its output says which)',
          status: 'failed',
        },
        {
          testSuite: '(run)',
          testCase: '(unhandled error) the process exited (code 1) before the run ended',
          status: 'failed',
        },
      ]),
    );
  },
  TESTCAFE_RUN_TIMEOUT_MS,
);
