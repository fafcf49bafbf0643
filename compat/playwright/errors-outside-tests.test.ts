import {
  identities,
  PLAYWRIGHT_OWN_EXIT_CODE,
  playwrightFixtures,
  reporterEnv,
  runPlaywright,
  shownState,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// Errors Playwright reports outside any test (its onError) fail the run; the results must
// show it: one in a test file becomes that file's `(file failed to run)`, one in no test
// file a `(run)` result, as for Vitest and Jest. Files that fail to load: see the parity test.

const cwd = playwrightFixtures.errors;

describe('Playwright errors outside any test', () => {
  it('reports a worker error in a spec file as that file failing, beside its passed test, and a worker that died as its test failing', async () => {
    const server = await startTestServer();
    const outcome = await runPlaywright({ cwd, env: reporterEnv(server) });

    const [run] = await server.server.store.runs();
    const stored = await server.server.store.results(run!.id);
    expect(identities(stored), outcome.stderr).toEqual(
      identities([
        { testSuite: 'passes.test.js', testCase: 'passes', status: 'passed' },
        { testSuite: 'worker-teardown.test.js', testCase: 'reads with the database', status: 'passed' },
        { testSuite: 'worker-teardown.test.js', testCase: '(file failed to run)', status: 'failed' },
        { testSuite: 'worker-crash.test.js', testCase: 'kills its own worker', status: 'failed' },
        {
          testSuite: 'worker-crash.test.js',
          testCase: 'runs in a new worker after the crash',
          status: 'passed',
        },
      ]),
    );
    // Why: the worker's error Playwright placed in the file; the crash Playwright gave the test.
    const why = (testCase: string) => stored.find((result) => result.testCase === testCase)?.details?.message;
    expect(why('(file failed to run)')).toMatch(/^Error: the database did not close\n/);
    expect(why('kills its own worker')).toMatch(
      /worker process exited unexpectedly \(code=null, signal=SIGKILL\)/,
    );
    expect(outcome.code, outcome.stderr).toBe(PLAYWRIGHT_OWN_EXIT_CODE);
    expect(await shownState(server, run!.id)).toEqual({ api: 'failed', page: 'failed' });
  });

  it('reports a globalSetup that throws as one failed result of the run', async () => {
    const server = await startTestServer();
    const env = { FIXTURE_FAILING_GLOBAL_SETUP: '1' };
    const outcome = await runPlaywright({ cwd, env: reporterEnv(server, env) });

    const [run] = await server.server.store.runs();
    const stored = await server.server.store.results(run!.id);
    expect(identities(stored), outcome.stderr).toEqual([
      {
        testSuite: '(run)',
        testCase: '(unhandled error) Error: global setup could not seed the database',
        status: 'failed',
      },
    ]);
    expect(stored[0]?.details?.message).toBe('Error: global setup could not seed the database');
    expect(outcome.code, outcome.stderr).toBe(PLAYWRIGHT_OWN_EXIT_CODE);
  });
});
