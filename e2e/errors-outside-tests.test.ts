import {
  AWAIT_RUNS_TIMEOUT_MS,
  type ExpectedResult,
  fixtures,
  identities,
  legsHere,
  OUTSIDE_TEST_CASES,
  type OutsideTestCase,
  type RunOutcome,
  replaySpool,
  reporterEnv,
  resultsIn,
  runsLegsOf,
  shownState,
  startTestServer,
  type TestServer,
  tempDir,
  testrunLines,
  unexplainedFailures,
  VITEST_AND_JEST,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A run can fail without a failing test: an error after a test passed, a worker that dies,
// a setup file or environment that throws, a global setup that throws. The build is red,
// so the service must not show it green: such a failure becomes a failed result, of the
// file it belongs to, or of the run.

const CASES = OUTSIDE_TEST_CASES;
type Case = OutsideTestCase;

const passes = resultsIn('passes.test.js', [['passes', 'passed']]);
const fileFailed = (file: string) => resultsIn(file, [['(file failed to run)', 'failed']]);

/** What each case stores under this repo's Vitest and Jest; `undefined`: no run at all. */
const EXPECTED: Record<'vitest' | 'jest', Record<Case, readonly ExpectedResult[] | undefined>> = {
  vitest: {
    // Vitest reports these after the test passed, naming the file: it gets a failed result.
    'late-error': [
      ...passes,
      ...resultsIn('cases/late-error.test.js', [
        ['passes but leaves an error behind', 'passed'],
        ['(file failed to run)', 'failed'],
      ]),
    ],
    rejection: [
      ...passes,
      ...resultsIn('cases/rejection.test.js', [
        ['passes but leaves a rejected promise behind', 'passed'],
        ['(file failed to run)', 'failed'],
      ]),
    ],
    // Vitest turns process.exit into a failure of the test.
    'process-exit': [
      ...passes,
      ...resultsIn('cases/process-exit.test.js', [['calls process.exit', 'failed']]),
    ],
    // The dead worker's error names no file; the file it ran never finished.
    'worker-crash': [
      ...passes,
      ...resultsIn('cases/worker-crash.test.js', [
        ['kills its own worker', 'skipped'],
        ['(file failed to run)', 'failed'],
      ]),
      ...resultsIn('(run)', [
        ['(unhandled error) Error: [vitest-pool]: Worker forks emitted error.', 'failed'],
      ]),
    ],
    'no-tests': [...passes, ...fileFailed('cases/no-tests.test.js')],
    'setup-file-throws': fileFailed('passes.test.js'),
    // Vitest ends the run before any file, and hands the reporter no error: every file failed to run.
    'global-setup-throws': fileFailed('passes.test.js'),
    'environment-fails': fileFailed('passes.test.js'),
  },
  jest: {
    // Jest fails the test that was running when the error came.
    'late-error': [
      ...passes,
      ...resultsIn('cases/late-error.test.js', [['passes but leaves an error behind', 'failed']]),
    ],
    rejection: [
      ...passes,
      ...resultsIn('cases/rejection.test.js', [['passes but leaves a rejected promise behind', 'failed']]),
    ],
    // In a worker, process.exit and a kill end the worker: Jest fails the file (testExecError).
    'process-exit': [...passes, ...fileFailed('cases/process-exit.test.js')],
    'worker-crash': [...passes, ...fileFailed('cases/worker-crash.test.js')],
    'no-tests': [...passes, ...fileFailed('cases/no-tests.test.js')],
    'setup-file-throws': fileFailed('passes.test.js'),
    // Jest runs globalSetup before it creates any reporter: nothing can be reported.
    'global-setup-throws': undefined,
    'environment-fails': fileFailed('passes.test.js'),
  },
};

/** What Vitest and Jest exit with, without the reporter, in every case here. */
const FRAMEWORK_EXIT_CODE = 1;

/**
 * Jest runs in band when it has one worker (a 2-core machine) or knows the tests are fast;
 * a fresh cache and two workers make it use workers, as a bigger suite on a bigger machine does.
 */
const jestWorkers = () => ['-w', '2', `--cacheDirectory=${tempDir('testrun-jest-cache-')}`];

describe.each(legsHere(VITEST_AND_JEST, ({ name }) => name))(
  '$name failing outside any test',
  ({ name, run }) => {
    let server: TestServer;
    const outcomes = new Map<Case, RunOutcome>();

    beforeAll(async () => {
      server = await startTestServer();
      await Promise.all(
        CASES.map(async (fixtureCase) => {
          const outcome = await run({
            cwd: fixtures.outsideTests,
            args: name === 'jest' ? jestWorkers() : [],
            env: reporterEnv(server, { FIXTURE_CASE: fixtureCase, TESTRUN_TAGS: fixtureCase }),
          });
          outcomes.set(fixtureCase, outcome);
        }),
      );
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    const storedRun = async (fixtureCase: Case) => {
      const runs = (await server.server.store.runs()).filter((stored) => stored.tags.includes(fixtureCase));
      expect(runs.length, `runs of ${fixtureCase}`).toBeLessThanOrEqual(1);
      return runs[0] && (await server.server.store.results(runs[0].id));
    };

    it.each(CASES)('%s: stores the failure as a failed result', async (fixtureCase) => {
      const stored = await storedRun(fixtureCase);
      const expected = EXPECTED[name][fixtureCase];
      const outcome = outcomes.get(fixtureCase)!;
      expect(stored && identities(stored), `${outcome.stdout}\n${outcome.stderr}`).toEqual(
        expected && identities(expected),
      );
    });

    it('holds a failed result in every stored run whose framework exited non-zero, and never ends it completed', async () => {
      const withoutFailure: Case[] = [];
      const ends: [Case, string][] = [];
      for (const fixtureCase of CASES) {
        const stored = await storedRun(fixtureCase);
        if (stored !== undefined && !stored.some((result) => result.status === 'failed'))
          withoutFailure.push(fixtureCase);
        const [run] = (await server.server.store.runs()).filter((r) => r.tags.includes(fixtureCase));
        if (run && outcomes.get(fixtureCase)!.code !== 0)
          ends.push([fixtureCase, (await shownState(server, run.id)).api]);
      }
      expect(withoutFailure).toEqual([]);
      expect(ends.filter(([, state]) => state === 'completed')).toEqual([]);
    });

    it('says why every failed result failed; with no error from the runner, that it gave none', async () => {
      const unexplained: string[] = [];
      for (const fixtureCase of CASES) {
        const stored = await storedRun(fixtureCase);
        for (const line of unexplainedFailures(stored ?? [])) unexplained.push(`${fixtureCase}: ${line}`);
      }
      expect(unexplained).toEqual([]);
      if (name === 'vitest') {
        // A global setup that threw: Vitest ends the run with no error in the reporter's hands.
        const [result] = (await storedRun('global-setup-throws')) ?? [];
        expect(result?.details?.message).toBe(
          'the file failed outside its tests; vitest reported no error for it',
        );
        // The file a crashed worker never finished: the crash, which names no file.
        const crashed = (await storedRun('worker-crash'))?.find((r) => r.testCase === '(file failed to run)');
        expect(crashed?.details?.message).toMatch(/Worker forks emitted error/);
      }
    });

    // Each case alone exits 1 under both frameworks (every supported version: compat/matrix.test.ts
    // runs each case without the reporter and compares); 16 runs more here cost the suite ~8 s.
    it('keeps the exit code the framework gives without the reporter: 1 for every case', () => {
      expect(CASES.map((fixtureCase) => [fixtureCase, outcomes.get(fixtureCase)!.code])).toEqual(
        CASES.map((fixtureCase) => [fixtureCase, FRAMEWORK_EXIT_CODE]),
      );
    });

    if (name === 'vitest') {
      it('says in the summary line that unhandled errors became failed results', () => {
        expect(testrunLines(outcomes.get('late-error')!.stderr)).toEqual([
          expect.stringMatching(
            /^testrun: 3 results → run .*; 1 unhandled error, reported as failed results$/,
          ),
        ]);
      });
    }
  },
);

if (runsLegsOf('jest'))
  describe('Jest exiting in the middle of a run', () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer();
    });

    afterAll(() => server?.close());

    it('spools what it holds with a failed result of the run when process.exit() ends Jest running in band', async () => {
      const [jest] = VITEST_AND_JEST.filter((framework) => framework.name === 'jest');
      const env = reporterEnv(server, { FIXTURE_CASE: 'process-exit' });
      const outcome = await jest!.run({ cwd: fixtures.outsideTests, args: ['--runInBand'], env });
      expect(outcome.code).toBe(3);
      expect(testrunLines(outcome.stderr)).toEqual([
        expect.stringMatching(
          /^testrun: the process exited \(code 3\) before the run's results were delivered: \d+ results and the run's end \(interrupted\) spooled to /,
        ),
      ]);
      const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(await server.server.store.allResults()).toContainEqual(
        expect.objectContaining({
          testSuite: '(run)',
          testCase: '(unhandled error) the process exited (code 3) before the run ended',
          status: 'failed',
        }),
      );
    });
  });

if (runsLegsOf('jest'))
  it('ends a run Jest failed on its snapshots (--ci, an obsolete snapshot file) failed, with a result saying so, though every test passed', async () => {
    const server = await startTestServer();
    const [jest] = VITEST_AND_JEST.filter((framework) => framework.name === 'jest');
    const outcome = await jest!.run({
      cwd: fixtures.obsoleteSnapshots,
      args: ['--ci'],
      env: reporterEnv(server),
    });
    const output = `${outcome.stdout}\n${outcome.stderr}`;
    // Jest's own verdict, as without the reporter: every test passed, and the run failed.
    expect(outcome.stderr).toMatch(/1 file obsolete/);
    expect(outcome.code, output).toBe(1);
    const [run] = await server.server.store.runs();
    const stored = await server.server.store.results(run!.id);
    expect(identities(stored), output).toEqual(
      identities([
        ...passes,
        ...resultsIn('(run)', [['(unhandled error) Jest failed the run on its snapshots', 'failed']]),
      ]),
    );
    expect(stored.find((result) => result.testSuite === '(run)')?.details?.message).toBe(
      'Jest failed the run on its snapshots\n1 obsolete snapshot file',
    );
    expect(await shownState(server, run!.id)).toEqual({ api: 'failed', page: 'failed' });
  });
