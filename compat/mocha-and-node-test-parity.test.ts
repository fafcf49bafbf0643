import {
  AWAIT_RUNS_TIMEOUT_MS,
  identities,
  MOCHA_PARALLEL_ONLY_FILES,
  MOCHA_PARITY_RESULTS,
  mochaFixtures,
  NODE_TEST_PARITY_RESULTS,
  nodeTestFixtures,
  PARITY_REPORTER_OPTIONS,
  PARITY_RESULTS,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  reporterEnv,
  resultsTagged,
  runMocha,
  runNodeTest,
  shownState,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The parity fixture's tests, written for Mocha and for node:test, must land as the shared
// expected list says wherever the runner has the concept; MOCHA_PARITY_RESULTS and
// NODE_TEST_PARITY_RESULTS are that list with each runner's own verdicts where it differs
// (the README's mapping section names each difference).

const key = (result: { testSuite: string; testCase: string; status: string }) =>
  `${result.testSuite}\n${result.testCase}\n${result.status}`;

/** The shared results a runner's list leaves out or changes. */
function differences(expected: readonly { testSuite: string; testCase: string; status: string }[]) {
  const kept = new Set(expected.map(key));
  return PARITY_RESULTS.filter((result) => !kept.has(key(result)));
}

describe('the parity fixture, run under Mocha', () => {
  let server: TestServer;
  let parallel: RunOutcome;
  let serial: RunOutcome;
  let parallelAlone: RunOutcome;

  beforeAll(async () => {
    // A run nobody completed reads abandoned at once: one that reads failed was ended by its reporter.
    server = await startTestServer({ abandonedAfterMs: 1 });
    const env = (tag: string) =>
      reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS, TESTRUN_TAGS: tag });
    const cwd = mochaFixtures.parity;
    const serialArgs = ['--no-parallel', ...MOCHA_PARALLEL_ONLY_FILES.flatMap((file) => ['--ignore', file])];
    [parallel, serial, parallelAlone] = await Promise.all([
      runMocha({ cwd, env: env('parallel') }),
      runMocha({ cwd, args: serialArgs, env: env('serial') }),
      runMocha({ cwd, withoutReporter: true }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it('stores the shared expected results in --parallel mode, with a todo as skipped', async () => {
    expect(identities(await resultsTagged(server, 'parallel')), parallel.stderr).toEqual(
      identities(MOCHA_PARITY_RESULTS),
    );
    expect(identities(differences(MOCHA_PARITY_RESULTS))).toEqual(
      identities(PARITY_RESULTS.filter((result) => result.status === 'todo')),
    );
  });

  it('names the same tests the same in serial mode, where a failed hook is found in the live suite', async () => {
    const expected = MOCHA_PARITY_RESULTS.filter(
      (result) => !MOCHA_PARALLEL_ONLY_FILES.includes(result.testSuite),
    );
    expect(identities(await resultsTagged(server, 'serial')), serial.stderr).toEqual(identities(expected));
  });

  it('ends both runs as failed, serial and --parallel: a test failed', async () => {
    for (const run of await server.server.store.runs()) {
      expect(await shownState(server, run.id), run.tags.join()).toEqual({ api: 'failed', page: 'failed' });
    }
  });

  it('leaves the exit code as without the reporter', () => {
    expect(parallel.code).toBe(parallelAlone.code);
    expect(parallel.code).not.toBe(0);
  });
});

describe('the parity fixture, run under node --test', () => {
  let server: TestServer;
  let outcome: RunOutcome;
  let concurrent: RunOutcome;
  let alone: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer({ abandonedAfterMs: 1 });
    const env = (tag: string) =>
      reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS, TESTRUN_TAGS: tag });
    const cwd = nodeTestFixtures.parity;
    [outcome, concurrent, alone] = await Promise.all([
      runNodeTest({ cwd, env: env('default') }),
      runNodeTest({ cwd, args: ['--test-concurrency=4'], env: env('concurrent') }),
      runNodeTest({ cwd, withoutReporter: true }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it("stores the shared expected results, with node:test's own verdicts where it has them", async () => {
    expect(identities(await resultsTagged(server, 'default')), outcome.stderr).toEqual(
      identities(NODE_TEST_PARITY_RESULTS),
    );
    expect(identities(differences(NODE_TEST_PARITY_RESULTS))).toEqual(
      identities(
        PARITY_RESULTS.filter(
          (result) =>
            result.testCase.startsWith('legacy checkout > ') ||
            result.testSuite === 'describe-throws.test.js',
        ),
      ),
    );
  });

  it('stores the same with files run side by side (--test-concurrency)', async () => {
    expect(identities(await resultsTagged(server, 'concurrent'))).toEqual(
      identities(NODE_TEST_PARITY_RESULTS),
    );
  });

  it('ends its runs as failed: a test failed', async () => {
    for (const run of await server.server.store.runs()) {
      expect(await shownState(server, run.id), run.tags.join()).toEqual({ api: 'failed', page: 'failed' });
    }
  });

  it('leaves the exit code at 1, as without the reporter', () => {
    expect([outcome.code, concurrent.code, alone.code]).toEqual([1, 1, 1]);
  });
});
