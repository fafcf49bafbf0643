import {
  AWAIT_RUNS_TIMEOUT_MS,
  fixtures,
  identities,
  PARITY_REPORTER_OPTIONS,
  PARITY_RESULTS,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  reporterEnv,
  resultsIn,
  resultsOfFramework,
  runJest,
  runVitest,
  shownState,
  startTestServer,
  type TestServer,
  unexplainedFailures,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The same test files run under Vitest and under Jest must land in the service as the
// same results: PARITY_RESULTS, which the version matrix (compat/) holds every version to.

describe('the parity fixture, run under Vitest and under Jest', () => {
  let server: TestServer;
  let vitest: RunOutcome;
  let jest: RunOutcome;
  let vitestAlone: RunOutcome;
  let jestAlone: RunOutcome;

  beforeAll(async () => {
    // A run nobody completed reads abandoned at once: one that reads failed was ended by its reporter.
    server = await startTestServer({ abandonedAfterMs: 1 });
    const env = () => reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS });
    const cwd = fixtures.parity;
    // Vitest's default, a process per file, which the fixture's config turns off for the other tests' speed.
    const isolated = ['--isolate'];
    [vitest, jest, vitestAlone, jestAlone] = await Promise.all([
      runVitest({ cwd, args: isolated, env: env() }),
      runJest({ cwd, env: env() }),
      runVitest({ cwd, args: isolated, withoutReporter: true }),
      runJest({ cwd, withoutReporter: true }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  const storedBy = (framework: string) => resultsOfFramework(server, framework);

  it('creates one run per framework', async () => {
    expect((await server.server.store.runs()).map((run) => run.framework).sort()).toEqual(['jest', 'vitest']);
  });

  it('stores exactly the expected results from Vitest', async () => {
    expect(identities(await storedBy('vitest'))).toEqual(identities(PARITY_RESULTS));
  });

  it('stores exactly the expected results from Jest', async () => {
    expect(identities(await storedBy('jest'))).toEqual(identities(PARITY_RESULTS));
  });

  it('says why every failed result failed, a file that failed outside its tests included', async () => {
    for (const framework of ['vitest', 'jest']) {
      expect(unexplainedFailures(await storedBy(framework)), framework).toEqual([]);
    }
  });

  it('stores a finite, non-negative duration for every result', async () => {
    const durations = [...(await storedBy('vitest')), ...(await storedBy('jest'))].map(
      (result) => result.duration,
    );
    expect(durations.filter((duration) => !(Number.isFinite(duration) && duration >= 0))).toEqual([]);
  });

  it('ends each run as failed: a test failed', async () => {
    for (const run of await server.server.store.runs()) {
      expect(await shownState(server, run.id), run.framework).toEqual({ api: 'failed', page: 'failed' });
    }
  });

  it('leaves both exit codes at 1, as without the reporter', () => {
    expect({ vitest: vitest.code, jest: jest.code }).toEqual({ vitest: 1, jest: 1 });
    expect({ vitest: vitestAlone.code, jest: jestAlone.code }).toEqual({ vitest: 1, jest: 1 });
  });
});

describe('a run filtered by test name, under Vitest and under Jest', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(() => server?.close());

  it('reports the tests left out by -t as skipped', async () => {
    const env = () => reporterEnv(server, { [REPORTER_OPTIONS_VAR]: PARITY_REPORTER_OPTIONS });
    const args = ['-t', 'adds'];
    await Promise.all([
      runVitest({ cwd: fixtures.passing, args, env: env() }),
      runJest({ cwd: fixtures.passing, args, env: env() }),
    ]);

    const expected = [
      ...resultsIn('math.test.js', [
        ['math > adds', 'passed'],
        ['math > multiplies', 'skipped'],
        ['divides', 'skipped'],
      ]),
      ...resultsIn('text.test.js', [
        ['text > trims', 'skipped'],
        ['text > pads', 'skipped'],
        ['text > wraps long lines', 'skipped'],
        ['text > hyphenates', 'skipped'],
      ]),
    ];
    const runs = await server.server.store.runs();
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(identities(await server.server.store.results(run.id))).toEqual(identities(expected));
    }
  });
});
