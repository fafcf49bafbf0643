import fs from 'node:fs';
import {
  CANCELLED_REPORTER_OPTIONS,
  cancelledRun,
  closedPortUrl,
  ENDS_ITSELF_ON,
  FRAMEWORKS,
  type Framework,
  fixtures,
  frameworksHere,
  identities,
  legsHere,
  nodeWithoutCoreDumps,
  readSpoolLines,
  replaySpool,
  reporterEnv,
  runJest,
  runLimiter,
  runsLegsOf,
  startServerThatHoldsResults,
  startTestServer,
  tempDir,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

/** What a cancelled run must keep: every test that had finished when the signal came. */
const FINISHED_RESULTS = [
  ...['fast > adds', 'fast > subtracts', 'fast > multiplies'].map((testCase) => ({
    testSuite: 'fast.test.js',
    testCase,
    status: 'passed',
  })),
  { testSuite: 'slow.test.js', testCase: 'slow > finishes before the job is cancelled', status: 'passed' },
];

const WAITING_CASE = 'slow > waits for the job to be cancelled';

/**
 * Other software in the framework's process that listens for signals (see
 * fixtures/signal-listeners.cjs). signal-exit v3 beside the guard is proven in
 * packages/core/test/exit-guard.e2e.test.ts, in a process of its own.
 */
const NEIGHBOURS = {
  'no other listener': {},
  'a signal-exit v4 listener (execa 6+)': { FIXTURE_SIGNAL_LISTENER: 'signal-exit' },
  'a handler that cleans up and exits': { FIXTURE_SIGNAL_LISTENER: 'handler' },
  'a second testrun reporter': { FIXTURE_REPORTERS: '2' },
} as Record<string, Record<string, string>>;

/** The framework runs of the tests that run side by side (below), a few at a time. */
const limited = runLimiter();

/**
 * How the framework's own process ends on `signal` without the reporter (ENDS_ITSELF_ON, in
 * test-utils: e2e/testrun-run.test.ts holds `testrun run` to it too); otherwise a handler that
 * cleans up exits 75 (fixtures/signal-listeners.cjs), or the signal ends the process, as a
 * signal-exit listener always makes it. compat/matrix.test.ts runs every supported version
 * cancelled with and without the reporter and compares; 26 runs without it here cost the
 * suite ~17 CPU-s.
 */
function endWithoutReporter(
  framework: Framework,
  neighbourEnv: Record<string, string | undefined>,
  signal: NodeJS.Signals,
): { code: number | null; signal: NodeJS.Signals | null } {
  // signal-exit ends the process by the signal itself once its listeners ran, before the framework's own exit.
  if (neighbourEnv.FIXTURE_SIGNAL_LISTENER?.startsWith('signal-exit')) return { code: null, signal };
  const own = ENDS_ITSELF_ON[framework.name]?.[signal];
  if (own !== undefined) return { code: own, signal: null };
  if (neighbourEnv.FIXTURE_SIGNAL_LISTENER === 'handler') return { code: 75, signal: null };
  return { code: null, signal };
}

function cancel(framework: Framework, env: Record<string, string | undefined>, signal: NodeJS.Signals) {
  return limited(() =>
    framework.run({
      cwd: framework.fixtures.cancelled,
      ...cancelledRun(env, signal),
      nodePath: nodeWithoutCoreDumps(),
    }),
  );
}

/**
 * The framework's cancelled fixture beside a neighbour, with the reporter, `signal` sent once
 * the slow file waits; the service never answers, so every result is still in hand when the
 * signal comes.
 */
async function cancelBeside(
  framework: Framework,
  neighbourEnv: Record<string, string>,
  signal: NodeJS.Signals,
) {
  const server = await startServerThatHoldsResults();
  const env = reporterEnv(server, { ...neighbourEnv, FIXTURE_REPORTER_OPTIONS: CANCELLED_REPORTER_OPTIONS });
  const withReporter = await cancel(framework, env, signal);
  return {
    withReporter,
    without: endWithoutReporter(framework, neighbourEnv, signal),
    spoolDir: env.TESTRUN_SPOOL_DIR!,
  };
}

type SpooledResult = { testSuite: string; testCase: string; status: string };

/** The results in each spool file of `dir`, one list per file (per reporter). */
function spooledPerFile(dir: string): SpooledResult[][] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.ndjson'))
    .map((name) =>
      readSpoolLines(dir, name)
        .filter((line) => line.type === 'batch')
        .flatMap((line) => line.results as SpooledResult[]),
    );
}

/**
 * The finished tests, each once. Besides them, at most the waiting test (Playwright reports
 * the test it stopped) and, when a handler ended the process with a failing code, the failed
 * `(run)` result that says so.
 */
function expectFinishedTestsKept(results: readonly SpooledResult[]): void {
  const extra = (result: SpooledResult) =>
    result.testCase === WAITING_CASE ||
    /^\(unhandled error\) the process exited \(code \d+\)/.test(result.testCase);
  expect(results.filter(extra).length).toBeLessThanOrEqual(2);
  expect(identities(results.filter((result) => !extra(result)))).toEqual(identities(FINISHED_RESULTS));
}

/**
 * The neighbours each framework is run beside. How the exit guard takes part in signal-exit's
 * protocol and shares the process with a second reporter is core's, proven under Vitest, Jest
 * and Playwright; Mocha and node:test, which handle signals their own way, are run alone and
 * beside a handler that exits on its own terms.
 */
function neighboursOf(framework: Framework): [string, Record<string, string>][] {
  const all = Object.entries(NEIGHBOURS);
  if (framework.name !== 'mocha' && framework.name !== 'node-test') return all;
  return all.filter(
    ([, env]) => !env.FIXTURE_SIGNAL_LISTENER?.startsWith('signal-exit') && !env.FIXTURE_REPORTERS,
  );
}

/**
 * The signals each neighbour meets. Under Vitest and Jest both SIGINT and SIGTERM reach the
 * reporter through the exit guard alone (Vitest exits 128 + the signal's number on either),
 * and the guard's every signal beside every neighbour is core's (exit-guard.e2e.test.ts):
 * beside a neighbour they meet the cancel CI sends, and both signals alone. Mocha and
 * node:test end their run themselves on SIGINT, a path of their own beside each neighbour;
 * so does Playwright, whose end on SIGINT beside a handler that exits on its own terms is a
 * race the reporter once lost (its end waited for delivery); beside signal-exit or a second
 * reporter, SIGINT takes the path it takes alone.
 */
function signalsOf(framework: Framework, neighbour: string): readonly NodeJS.Signals[] {
  const both = ['SIGTERM', 'SIGINT'] as const;
  if (neighbour === 'no other listener') return both;
  if (framework.name === 'vitest' || framework.name === 'jest') return ['SIGTERM'];
  if (framework.name === 'playwright' && !neighbour.startsWith('a handler')) return ['SIGTERM'];
  return both;
}

// Each test waits more than it works (a framework starting, the slow file's test waiting for
// the signal): they run side by side, each with its own server, spool and waiting file.
describe.concurrent.each(frameworksHere())('$name cancelled by a signal mid-run', (framework) => {
  describe.each(neighboursOf(framework))('beside %s', (neighbour, neighbourEnv) => {
    it.each(signalsOf(framework, neighbour))(
      'ends on %s as it would without the reporter, with every finished test spooled',
      async (signal) => {
        const { withReporter, without, spoolDir } = await cancelBeside(framework, neighbourEnv, signal);
        expect({ code: withReporter.code, signal: withReporter.signal }).toEqual({
          code: without.code,
          signal: without.signal,
        });
        const reporters = Number(neighbourEnv.FIXTURE_REPORTERS ?? 1);
        const files = spooledPerFile(spoolDir);
        expect(files).toHaveLength(reporters);
        for (const results of files) expectFinishedTestsKept(results);
        expect(testrunLines(withReporter.stderr).filter((line) => / spooled to /.test(line))).toHaveLength(
          reporters,
        );
      },
    );
  });

  // One signal per framework: a Playwright run ends itself on SIGINT, node:test on SIGINT
  // too; Jest, Vitest and Mocha meet SIGTERM and SIGHUP through the exit guard.
  const downSignal = (
    {
      playwright: 'SIGINT',
      jest: 'SIGTERM',
      vitest: 'SIGHUP',
      mocha: 'SIGTERM',
      'node-test': 'SIGINT',
    } as const
  )[framework.name];
  it.each([downSignal])(
    'with the service down, says on %s where the results went, and a replay stores each once',
    async (signal) => {
      const url = await closedPortUrl();
      const apiKey = 'cancel-key-4711';
      const env = reporterEnv({ url, apiKey }, { FIXTURE_REPORTER_OPTIONS: CANCELLED_REPORTER_OPTIONS });
      const withReporter = await cancel(framework, env, signal);
      const without = endWithoutReporter(framework, {}, signal);
      expect({ code: withReporter.code, signal: withReporter.signal }).toEqual({
        code: without.code,
        signal: without.signal,
      });
      // The exit guard spools and says so as the process leaves; Playwright ends its run on
      // SIGINT and calls the reporter's end, which spools at once and says so in its summary;
      // node:test ends a run cancelled by SIGINT or SIGTERM itself, with exit code 1.
      const how =
        framework.name === 'node-test' && signal !== 'SIGHUP' ? 'exited \\(code 1\\)' : `received ${signal}`;
      const said =
        framework.name === 'playwright' && signal === 'SIGINT'
          ? /^testrun: 0 results → run .*; [45] spooled to .*\.ndjson: send them with `npx @testrun\/cli replay --dir .*; the run's end \(interrupted\) waits in the spool with them/
          : // The run was never created: its end waits too, for replay to send where the service takes it.
            new RegExp(
              `^testrun: the process ${how} before the run's results were delivered: [45] results and the run's end \\(interrupted\\) spooled to .*\\.ndjson: send them with \`npx @testrun/cli replay --dir `,
            );
      expect(testrunLines(withReporter.stderr)).toContainEqual(expect.stringMatching(said));
      const [spooled = []] = spooledPerFile(env.TESTRUN_SPOOL_DIR!);
      expectFinishedTestsKept(spooled);

      // It comes back elsewhere: the spool names the old address.
      const target = await startTestServer({ apiKey });
      const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, target, ['--ignore-recorded-url']);
      expect(replayed.stderr).toBe('');
      expect(identities(await target.server.store.allResults())).toEqual(identities(spooled));
    },
  );
});

// Issue 42: a test starts a helper as execa does (signal-exit's onExit registered while it
// lives), and the job gets a signal signal-exit listens to that a cancel does not send
// (nodemon restarts with SIGUSR2, CI sends SIGQUIT for a thread dump). The guard counted
// itself in signal-exit's protocol without listening to these: signal-exit took it for
// someone else's handler, and the job ran on and exited 0. Every signal, both versions and
// both load orders are core's (packages/core/test/exit-guard.e2e.test.ts); here real runners:
// Mocha serial, a test of its starting the helper (after the reporter loaded), and Jest, whose
// main process holds the reporter and signal-exit v3 from a global setup.
const SIGNAL_EXIT_ROWS = legsHere(
  [
    ['mocha', 'SIGQUIT', { FIXTURE_HELPER: 'signal-exit' }],
    ['mocha', 'SIGALRM', { FIXTURE_HELPER: 'signal-exit-3' }],
    ['mocha', 'SIGUSR2', { FIXTURE_HELPER: 'signal-exit' }],
    ['jest', 'SIGUSR2', { FIXTURE_SIGNAL_LISTENER: 'signal-exit-3' }],
  ] as const,
  ([name]) => name,
);

if (SIGNAL_EXIT_ROWS.length > 0)
  describe('a signal signal-exit listens to, beside signal-exit', () => {
    const named = (name: Framework['name']) => FRAMEWORKS.find((framework) => framework.name === name)!;

    it.concurrent.each(SIGNAL_EXIT_ROWS)(
      '%s ends on %s beside %j as it would without the reporter, with every finished test spooled',
      async (name, signal, neighbour) => {
        // Without the reporter, the signal ends the process (compat/matrix.test.ts compares the two).
        const { withReporter, spoolDir } = await cancelBeside(named(name), neighbour, signal);
        expect({ code: withReporter.code, signal: withReporter.signal }).toEqual({ code: null, signal });
        const [spooled = []] = spooledPerFile(spoolDir);
        expectFinishedTestsKept(spooled);
        expect(testrunLines(withReporter.stderr)).toContainEqual(
          expect.stringMatching(
            new RegExp(`^testrun: the process received ${signal} before the run's results`),
          ),
        );
      },
    );
  });

if (runsLegsOf('jest'))
  describe('jest -i with a test that calls process.exit()', () => {
    it('keeps the results of the files before it, and a failed result of the run for the exit, stored once after replay', async () => {
      const server = await startTestServer();
      const env = reporterEnv(server, {
        FIXTURE_REPORTER_OPTIONS: JSON.stringify({ flushInterval: 60_000 }),
      });
      const cacheDirectory = tempDir('testrun-jest-cache-');
      const args = ['-i', `--cacheDirectory=${cacheDirectory}`];
      const [withReporter, without] = await Promise.all([
        runJest({ cwd: fixtures.exits, args, env }),
        runJest({
          cwd: fixtures.exits,
          args: ['-i', `--cacheDirectory=${cacheDirectory}-alone`],
          withoutReporter: true,
        }),
      ]);
      expect(withReporter.code).toBe(without.code);
      expect(testrunLines(withReporter.stderr)).toContainEqual(
        expect.stringMatching(
          /^testrun: the process exited \(code 1\) before the run's results were delivered: 4 results and the run's end \(interrupted\) spooled/,
        ),
      );
      const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server);
      expect(replayed.code).toBe(0);
      expect(identities(await server.server.store.allResults())).toEqual(
        identities([
          ...['first', 'second', 'third'].map((t) => ({
            testSuite: 'passes.test.js',
            testCase: `passes > ${t}`,
            status: 'passed',
          })),
          {
            testSuite: '(run)',
            testCase: '(unhandled error) the process exited (code 1) before the run ended',
            status: 'failed',
          },
        ]),
      );
    });
  });

if (runsLegsOf('vitest'))
  describe('a cancelled run with completeRun', () => {
    const vitest = FRAMEWORKS.find((framework) => framework.name === 'vitest')!;

    it('spools its end as interrupted on SIGTERM, and a replay completes it so after its results', async () => {
      const server = await startTestServer();
      const env = reporterEnv(server, {
        TESTRUN_COMPLETE_RUN: '1',
        FIXTURE_REPORTER_OPTIONS: JSON.stringify({ flushInterval: 10 }),
      });
      await cancel(vitest, env, 'SIGTERM');
      // The process cannot wait for an answer on its way out: nothing completed the run yet.
      expect(server.server.requests.filter((request) => request.route === 'completeRun')).toHaveLength(0);
      const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!);
      expect(spooled.filter((line) => line.type === 'complete')).toEqual([
        expect.objectContaining({
          status: 'interrupted',
          request: expect.objectContaining({ method: 'PATCH' }),
        }),
      ]);

      const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server);
      expect(replayed.stderr).toBe('');
      expect(replayed.code).toBe(0);
      const [run] = await server.server.store.runs();
      expectFinishedTestsKept(await server.server.store.results(run!.id));
      // The end went last: after every result of the run.
      expect(server.server.requests.at(-1)?.route).toBe('completeRun');
      const answer = await fetch(`${server.url}/api/v1/runs/${run!.id}`, {
        headers: { authorization: `Bearer ${server.apiKey}` },
      });
      expect(await answer.json()).toMatchObject({ state: 'interrupted', end: { status: 'interrupted' } });
    });
  });

// What CI once saw by chance (compat/testrun-run.test.ts, Playwright on SIGTERM): a batch the
// service had stored, whose answer had not come when the signal did, is both on the service
// and in the spool. Made certain here: the first batch is stored and its answer lost, and its
// retry, like every later batch, is held until the signal. The replay sends it with its key.
if (runsLegsOf('vitest'))
  describe('a batch the service stored but had not answered when the job was cancelled', () => {
    const vitest = FRAMEWORKS.find((framework) => framework.name === 'vitest')!;

    it('is spooled with the rest, and the replay stores it once', async () => {
      let holding = true;
      const server = await startTestServer({
        faults: (request) => {
          if (!holding || request.route !== 'submitResults') return undefined;
          return request.n === 0 ? { drop: 'after' } : { delayMs: 60_000 };
        },
      });
      const env = reporterEnv(server, { FIXTURE_REPORTER_OPTIONS: CANCELLED_REPORTER_OPTIONS });
      const outcome = await cancel(vitest, env, 'SIGTERM');
      expect(outcome.code, outcome.stderr).toBe(ENDS_ITSELF_ON.vitest!.SIGTERM);

      const storedLive = await server.server.store.allResults();
      const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!)
        .filter((line) => line.type === 'batch')
        .flatMap((line) => line.results as SpooledResult[]);
      expect(storedLive.length, outcome.stderr).toBeGreaterThan(0);
      expect(identities(spooled)).toEqual(expect.arrayContaining(identities(storedLive)));

      holding = false;
      const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server);
      expect({ code: replayed.code, stderr: replayed.stderr }).toEqual({ code: 0, stderr: '' });
      expectFinishedTestsKept(await server.server.store.allResults());
    });
  });
