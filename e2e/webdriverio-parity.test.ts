import {
  AWAIT_RUNS_TIMEOUT_MS,
  type ExpectedResult,
  identities,
  MOCHA_PARITY_RESULTS,
  missingBrowser,
  PARITY_REPORTER_OPTIONS,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  reporterEnv,
  resultsIn,
  resultsTagged,
  runWdio,
  startTestServer,
  type TestServer,
  WDIO_PARITY_RESULTS,
  webdriverioFixtures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The shared parity fixture's Mocha files through real
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
const { parity } = webdriverioFixtures;

const key = (result: { testSuite: string; testCase: string; status: string }) =>
  `${result.testSuite}\n${result.testCase}\n${result.status}`;

describe.skipIf(missing)('the parity fixture, run under WebdriverIO’s Mocha framework', () => {
  let server: TestServer;
  let outcome: RunOutcome;
  let alone: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    [outcome, alone] = await Promise.all([
      runWdio({
        ...parity,
        env: reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS, TESTRUN_TAGS: 'parity' }),
      }),
      runWdio({ ...parity, env: { FIXTURE_WITHOUT_REPORTER: '1' } }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it("stores Mocha's parity results, with WebdriverIO's own verdict for a failed before hook", () => {
    expect(identities(resultsTagged(server, 'parity')), output(outcome)).toEqual(
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

  it('stores them in one run, created by the launcher service', () => {
    const runs = server.server.store.runs();
    expect(runs.map((run) => run.project)).toEqual(['parity']);
    expect(runs[0]!.framework).toBe('webdriverio');
  });

  it('leaves the exit code as without the reporter, and never prints the key', () => {
    expect(outcome.code).toBe(alone.code);
    expect(outcome.code).toBe(1);
    expect(output(outcome)).not.toContain(server.apiKey);
  });
});
