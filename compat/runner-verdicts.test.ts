import {
  identities,
  type RunOutcome,
  reporterEnv,
  runTestCafe,
  shownState,
  startTestServer,
  TESTCAFE_RUN_TIMEOUT_MS,
  type TestServer,
  testcafeBrowserMissing,
  testrunLines,
  untilTestCafeOpensItsBrowsers,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A run is never greener than the runner's own verdict (docs/design.md, "The run's end"), held
// to the runner's exit code where proving it costs more than pnpm test affords: a TestCafe task
// whose Chromium dies mid-test starts Chromium three times (TestCafe restarts a disconnected
// browser twice), ~8 CPU-s. The cheaper cases (a WebdriverIO worker killed, a Playwright
// worker that crashed, Newman cut short, Jasmine's incomplete run, Jest's snapshots) are in
// pnpm test's e2e files of their runners.

const missing = testcafeBrowserMissing();
if (missing) console.warn(`skipping the TestCafe run: ${missing}`);

describe.skipIf(missing)('testcafe whose browser dies mid-task', () => {
  let server: TestServer;
  let outcome: RunOutcome;

  beforeAll(async () => {
    // crash/ kills its Chromium each time TestCafe starts it, until TestCafe gives up (third
    // disconnection): about 20 s of restarts, heartbeats shortened by the fixture.
    ({ server, outcome } = await untilTestCafeOpensItsBrowsers(async () => {
      const server = await startTestServer();
      const outcome = await runTestCafe({ args: ['crash/'], env: reporterEnv(server) });
      return { server, outcome };
    }));
  }, TESTCAFE_RUN_TIMEOUT_MS);
  afterAll(() => server.close());

  it("ends the run failed, as TestCafe's exit code says, with a failed result saying the browser disconnected", async () => {
    const output = outcome.stdout + outcome.stderr;
    // TestCafe's own verdict, without the reporter as with it: the task failed, 2 of its 3 tests with it.
    expect(output).toMatch(/The Chrome [^\n]* browser disconnected/);
    expect(outcome.stdout).toMatch(/2\/3 failed/);
    expect(outcome.code, output).toBe(1);
    const [run] = await server.server.store.runs();
    const stored = await server.server.store.results(run!.id);
    expect(identities(stored), output).toEqual(
      identities([
        {
          testSuite: 'crash/browser-dies.test.js',
          testCase: 'crash > passes before the browser dies',
          status: 'passed',
        },
        {
          testSuite: '(run)',
          testCase: expect.stringMatching(
            /^\(unhandled error\) The Chrome .* browser disconnected\. If you did not close the browser yourself/,
          ),
          status: 'failed',
        },
      ]),
    );
    expect(stored.find((result) => result.testSuite === '(run)')?.details?.message).toMatch(
      /browser disconnected\. .*\nTestCafe counted 3 tests and reported 1: 2 never ended$/,
    );
    expect(await shownState(server, run!.id)).toEqual({ api: 'failed', page: 'failed' });
    expect(testrunLines(output)).toEqual([expect.stringMatching(/^testrun: 2 results → run \S+/)]);
  });
});
