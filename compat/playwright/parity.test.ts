import {
  AWAIT_RUNS_TIMEOUT_MS,
  identities,
  LOAD_ERROR_FILES,
  PARITY_REPORTER_OPTIONS,
  PARITY_RESULTS,
  PLAYWRIGHT_OWN_EXIT_CODE,
  PLAYWRIGHT_PARITY_RESULTS,
  playwrightFixtures,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  reporterEnv,
  runPlaywright,
  startTestServer,
  type TestServer,
  unexplainedFailures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The parity fixture's tests, written for Playwright, must land as the shared expected
// list says wherever Playwright has the concept; PLAYWRIGHT_PARITY_RESULTS is that list
// with Playwright's own verdicts where it differs (no todo, afterAll failures). The files
// that fail to load stop a Playwright run, so they run as a fixture of their own.

describe('the parity fixture, run under Playwright', () => {
  let server: TestServer;
  let parity: RunOutcome;
  let loadErrors: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    const env = () => reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS });
    [parity, loadErrors] = await Promise.all([
      runPlaywright({ cwd: playwrightFixtures.parity, env: env() }),
      runPlaywright({ cwd: playwrightFixtures.loadErrors, env: env() }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  const storedBy = async (project: string) => {
    const runs = (await server.server.store.runs()).filter((run) => run.project === project);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.framework).toBe('playwright');
    return await server.server.store.results(runs[0]!.id);
  };

  it('stores the shared expected results where Playwright has the concept, and its own verdicts elsewhere', async () => {
    expect(identities(await storedBy('parity-fixture')), `${parity.stdout}\n${parity.stderr}`).toEqual(
      identities(PLAYWRIGHT_PARITY_RESULTS),
    );
  });

  it('shares most of the list unchanged: every difference is one the README names', async () => {
    const key = (result: { testSuite: string; testCase: string; status: string }) =>
      `${result.testSuite}\n${result.testCase}\n${result.status}`;
    const stored = new Set((await storedBy('parity-fixture')).map(key));
    const different = PARITY_RESULTS.filter((result) => !stored.has(key(result)));
    expect(identities(different)).toEqual(
      identities(
        PARITY_RESULTS.filter(
          (result) =>
            result.status === 'todo' ||
            result.testSuite === 'teardown-fails.test.js' ||
            LOAD_ERROR_FILES.includes(result.testSuite),
        ),
      ),
    );
  });

  it('stores a file that fails to load as the shared list says, though the run stops there', async () => {
    const expected = PARITY_RESULTS.filter((result) => LOAD_ERROR_FILES.includes(result.testSuite));
    const stored = await storedBy('load-errors-fixture');
    expect(identities(stored), loadErrors.stderr).toEqual(identities(expected));
    // Why: the error Playwright placed in each file, where it was thrown.
    expect(
      stored.map((result) => [result.testSuite, result.details?.message, result.details?.location]).sort(),
    ).toEqual([
      [
        'describe-throws.test.js',
        'Error: the describe body throws',
        expect.stringMatching(/^describe-throws\.test\.js:\d+:\d+$/),
      ],
      ['import-throws.test.js', 'Error: this file throws while it is imported', 'import-throws.test.js:1:7'],
    ]);
  });

  it('says why every failed result failed: a test a beforeAll kept from running has the hook’s error', async () => {
    const results = await storedBy('parity-fixture');
    expect(unexplainedFailures(results)).toEqual([]);
    const said = (testCase: string) =>
      results.find((result) => result.testCase === testCase)?.details?.message;
    expect(said('a block > needs it too')).toBe('Error: the file-level setup failed');
    expect(said('database > writes a row')).toBe('Error: cannot connect to the database');
  });

  it('stores a finite, non-negative duration for every result', async () => {
    const durations = [...(await storedBy('parity-fixture')), ...(await storedBy('load-errors-fixture'))].map(
      (result) => result.duration,
    );
    expect(durations.filter((duration) => !(Number.isFinite(duration) && duration >= 0))).toEqual([]);
  });

  // PLAYWRIGHT_OWN_EXIT_CODE: both fixtures fail on purpose.
  it('leaves both exit codes at 1, as without the reporter', () => {
    expect([parity.code, loadErrors.code]).toEqual([PLAYWRIGHT_OWN_EXIT_CODE, PLAYWRIGHT_OWN_EXIT_CODE]);
  });
});
