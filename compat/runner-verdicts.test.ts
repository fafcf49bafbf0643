import fs from 'node:fs';
import path from 'node:path';
import {
  descendantsOf,
  identities,
  missingBrowser,
  type RunOutcome,
  readSpoolLines,
  reporterEnv,
  resultsIn,
  runTestCafe,
  runWdio,
  shownState,
  startTestServer,
  TESTCAFE_RUN_TIMEOUT_MS,
  type TestServer,
  tempDir,
  testcafeBrowserMissing,
  testrunLines,
  untilTestCafeOpensItsBrowsers,
  WDIO_AWAIT_RUNS_TIMEOUT_MS,
  webdriverioFixtures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// A run is never greener than the runner's own verdict
// (docs/design/run-end.md#never-greener-than-the-runner), held to the runner's exit code where
// proving it costs more than pnpm test affords: a TestCafe task whose Chromium dies mid-test starts
// Chromium three times (TestCafe restarts a disconnected browser twice), ~8 CPU-s; a WebdriverIO
// worker killed outright is a `wdio run` of its own (~5 CPU-s), beside pnpm test's worker ended by
// SIGTERM. The cheaper cases (a Playwright worker that crashed, Newman cut short, Jasmine's
// incomplete run, Jest's snapshots) are in pnpm test's e2e files of their runners.

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
  afterAll(() => server?.close());

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

const wdioMissing = missingBrowser();

describe.skipIf(wdioMissing)(
  'a WebdriverIO worker killed outright mid-file (SIGKILL: an out-of-memory kill)',
  () => {
    it(
      "fails the worker's spec file from the launcher, saying how the worker ended; the run ends failed, as WebdriverIO's exit code says",
      async () => {
        const server = await startTestServer();
        const state = tempDir('wdio-state-');
        const env = reporterEnv(server, {
          FIXTURE_ONE_CAPABILITY: '1',
          FIXTURE_SPECS: './killed/killed.spec.js',
          FIXTURE_STATE_DIR: state,
        });
        const running = runWdio({ cwd: webdriverioFixtures.mocha, env });
        const marker = path.join(state, 'killed');
        // Only a real pid: process.kill(0) would end this test's own process group.
        const workerPid = await vi.waitFor(
          () => {
            const pid = fs.existsSync(marker) ? Number(fs.readFileSync(marker, 'utf8')) : Number.NaN;
            expect(Number.isInteger(pid) && pid > 1, `a pid in ${marker}`).toBe(true);
            return pid;
          },
          { timeout: 60_000, interval: 100 },
        );
        // Its chromedriver and Chromium would outlive it: ended once the run is over.
        const driverPids = descendantsOf(workerPid);
        process.kill(workerPid, 'SIGKILL');
        const outcome = await running;
        for (const pid of driverPids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {}
        }
        const output = `${outcome.stdout}\n${outcome.stderr}`;
        const [run] = await server.server.store.runs();
        const stored = await server.server.store.results(run!.id);
        expect(identities(stored), output).toEqual(
          identities(resultsIn('killed/killed.spec.js', [['(file failed to run)', 'failed']])),
        );
        expect(stored[0]?.details?.message).toMatch(
          /^the WebdriverIO worker 0-0 was ended by SIGKILL( \(exit code 137\))? before its spec files ended/,
        );
        // SIGKILL leaves the worker nothing to spool; WebdriverIO exits 1, and the run says it failed.
        expect(readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch')).toEqual([]);
        expect(outcome.code, output).toBe(1);
        expect(await shownState(server, run!.id)).toEqual({ api: 'failed', page: 'failed' });
      },
      WDIO_AWAIT_RUNS_TIMEOUT_MS,
    );
  },
);
