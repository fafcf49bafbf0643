import {
  AWAIT_RUNS_TIMEOUT_MS,
  CUCUMBER_DOUBLES_RESULTS,
  DOUBLES_BEFORE_THE_REPORTER,
  DOUBLES_IN_A_TEST,
  type DoublesExpectation,
  doubleEnv,
  expectDeliveredPast,
  fixtures,
  JASMINE_DOUBLES_PARALLEL_ARGS,
  missingBrowser,
  type RunOutcome,
  reporterEnv,
  runCucumber,
  runJasmine,
  runJest,
  runMocha,
  runNodeTest,
  runWdio,
  startTestServer,
  type TestServer,
  WDIO_AWAIT_RUNS_TIMEOUT_MS,
  WDIO_DOUBLES,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Where a runner runs the tests in the reporter's own process (Mocha serial, Jest in band, the main
// process of node --test, which loads --require files too, Jasmine and Cucumber serial), the tests'
// doubles are installed in the process that delivers: nock and MSW refusing every connection,
// Node's HTTP entry points stubbed, fake clocks, an emptied environment, a removed working
// directory. Under Jasmine's and Cucumber's --parallel the tests run in workers and the reporter in
// the main process, which loads the setup files too (Cucumber's support files; what a Jasmine
// config file imports), and one run gets every worker's results. None of them may reach delivery
// (docs/reliability.md#what-a-test-may-do-to-its-process); the fixture's doubles.cjs says what each
// does and when. node --test with isolation none (Node 22+) is in compat/.

/**
 * Jasmine exits 3 when a spec failed, but 4 ("exited before finishing") when a fake clock is
 * left installed: it awaits its own output's flush, which a faked process.nextTick never
 * runs, and the emptied event loop ends the process. It does so without the reporter too.
 */
const JASMINE_FAKE_CLOCK_EXIT: readonly string[] = ['fake-timers', 'fake-timers-first'];

type Runner = (env: Record<string, string | undefined>) => Promise<RunOutcome>;

/**
 * The doubles installed before the reporter, less nock 13 (http.request replaced) and MSW
 * (@mswjs/interceptors, which nock 14 is built on too): how core sees through each way of
 * refusing connections is the same whatever the runner, and the Mocha and Jest rows prove
 * them all. The other runners' part is where the double is installed (a --require file, a
 * support file, a config's import, a worker), proven with nock 14, mitm and the stubs.
 */
const BEFORE_THE_REPORTER_BY_KIND = DOUBLES_BEFORE_THE_REPORTER.filter(
  (double) => double !== 'nock13' && double !== 'msw',
);

const RUNNERS: [
  name: string,
  doubles: string[],
  run: Runner,
  expectation?: (double: string) => DoublesExpectation,
][] = [
  [
    'mocha',
    [...DOUBLES_BEFORE_THE_REPORTER, ...DOUBLES_IN_A_TEST],
    (env) => runMocha({ cwd: fixtures.doubles, env }),
  ],
  [
    'jest --runInBand',
    // Not chdir: Jest itself cannot load the next file once its working directory is gone.
    [
      ...DOUBLES_BEFORE_THE_REPORTER,
      ...DOUBLES_IN_A_TEST.filter((double) => double !== 'chdir'),
      'jest-fake-timers',
    ],
    (env) => runJest({ cwd: fixtures.doubles, args: ['-i'], env }),
  ],
  // Each file runs in a process of its own: only what --require installs shares the
  // reporter's. Not fake-timers-first: node --test itself runs nothing with every clock
  // faked before it starts.
  [
    'node --test',
    BEFORE_THE_REPORTER_BY_KIND.filter((double) => double !== 'fake-timers-first'),
    (env) => runNodeTest({ cwd: fixtures.doubles, env }),
  ],
  // Its jasmine.json `requires` setup.cjs before @testrun/jasmine/register.
  [
    'jasmine',
    [...BEFORE_THE_REPORTER_BY_KIND, ...DOUBLES_IN_A_TEST, 'jasmine-clock'],
    (env) => runJasmine({ cwd: fixtures.doubles, env }),
    (double) => ({ code: JASMINE_FAKE_CLOCK_EXIT.includes(double) ? 4 : 3 }),
  ],
  // Cucumber loads every support file (setup.cjs among them) before it imports a formatter:
  // whatever a support file installs is there before the reporter loads. Not
  // fake-timers-first: cucumber-js itself runs nothing with every clock faked before it
  // starts (it exits 0 without a line, with or without the formatter).
  [
    'cucumber-js',
    [...BEFORE_THE_REPORTER_BY_KIND.filter((double) => double !== 'fake-timers-first'), ...DOUBLES_IN_A_TEST],
    (env) => runCucumber({ cwd: fixtures.doubles, env }),
    () => ({ results: CUCUMBER_DOUBLES_RESULTS }),
  ],
  // The reporter runs in the main process, the specs in the workers, which load `requires`
  // (setup.cjs); its parallel.mjs imports setup.cjs before the reporter too, so every setup
  // double is in both. A test's double stays in its worker, whose exit Jasmine does not
  // wait on a flush for: 3 even with a fake clock left installed. Not fake-timers-first:
  // Jasmine's main process and its workers each hang with every clock faked before they
  // start, with or without the reporter.
  [
    'jasmine --parallel=2',
    [
      ...BEFORE_THE_REPORTER_BY_KIND.filter((double) => double !== 'fake-timers-first'),
      ...DOUBLES_IN_A_TEST,
      'jasmine-clock',
    ],
    (env) => runJasmine({ cwd: fixtures.doubles, args: JASMINE_DOUBLES_PARALLEL_ARGS, env }),
    () => ({ code: 3 }),
  ],
  // A test's double done in the main process: Jasmine runs globalSetup there, after the
  // config file made the reporter and before it starts the workers (which inherit the
  // environment and the working directory). Not a fake clock: Jasmine's main process never
  // ends with one, with or without the reporter.
  [
    'jasmine --parallel=2, the double in globalSetup',
    ['proxy-env', 'chdir'],
    (env) =>
      runJasmine({
        cwd: fixtures.doubles,
        args: JASMINE_DOUBLES_PARALLEL_ARGS,
        env: { ...env, FIXTURE_IN_GLOBAL_SETUP: '1' },
      }),
    () => ({ code: 3 }),
  ],
  // The formatter runs in the coordinator, which loads every support file before it, as a
  // serial run does; the steps run in the workers, which load them again. Not
  // fake-timers-first (as serial), nor fake-timers: a worker with process.nextTick faked
  // never gets its next scenario (Node hands IPC messages over through process.nextTick),
  // so cucumber-js never ends, with or without the formatter.
  [
    'cucumber-js --parallel 2',
    [
      ...BEFORE_THE_REPORTER_BY_KIND.filter((double) => double !== 'fake-timers-first'),
      ...DOUBLES_IN_A_TEST.filter((double) => double !== 'fake-timers'),
    ],
    (env) => runCucumber({ cwd: fixtures.doubles, args: ['--parallel', '2'], env }),
    () => ({ results: CUCUMBER_DOUBLES_RESULTS }),
  ],
];

describe.each(RUNNERS)(
  '%s, with a test double installed and never undone',
  (_runner, doubles, run, expectation) => {
    let server: TestServer;
    const outcomes = new Map<string, RunOutcome>();

    beforeAll(async () => {
      server = await startTestServer();
      await Promise.all(
        doubles.map(async (double) =>
          outcomes.set(double, await run(reporterEnv(server, doubleEnv(double)))),
        ),
      );
    }, AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it.each(doubles)(
      '%s: stores every result once, on the first attempt, and keeps the exit code',
      async (double) => {
        await expectDeliveredPast(server, double, outcomes.get(double)!, expectation?.(double));
      },
    );
  },
);

// A WebdriverIO worker (Mocha framework, the fixture's two files in one Chromium worker) runs
// the tests in the reporter's process; its mochaOpts.require setup.cjs installs the double there.
// Its tests' own doubles too, but not fake-timers: a worker with every clock faked by a test
// never ends, with or without the reporter (WebdriverIO hangs until killed).
// Of the setup file's doubles, nock 14 and the stubbed HTTP entry points (which only a
// WebdriverIO worker gets): nock 13 and MSW, refused connections too, installed in the
// reporter's own process before it loads, are the Mocha row's; run under WebdriverIO as well
// they cost four browsers and proved the same arrangement again.
// Two runs at a time, a browser each.
const WDIO_ROWS = [
  ...WDIO_DOUBLES.filter((double) => double !== 'nock13' && double !== 'msw'),
  ...DOUBLES_IN_A_TEST.filter((double) => double !== 'fake-timers'),
];

describe.skipIf(missingBrowser())(
  'wdio run (Mocha framework), with a test double installed and never undone',
  () => {
    let server: TestServer;
    const outcomes = new Map<string, RunOutcome>();

    beforeAll(async () => {
      server = await startTestServer();
      for (let i = 0; i < WDIO_ROWS.length; i += 2) {
        await Promise.all(
          WDIO_ROWS.slice(i, i + 2).map(async (double) =>
            outcomes.set(
              double,
              await runWdio({ cwd: fixtures.doubles, env: reporterEnv(server, doubleEnv(double)) }),
            ),
          ),
        );
      }
    }, 3 * WDIO_AWAIT_RUNS_TIMEOUT_MS);

    afterAll(() => server?.close());

    it.each(WDIO_ROWS)(
      '%s: stores every result once, on the first attempt, and keeps the exit code',
      async (double) => {
        // Into the run the launcher service created.
        await expectDeliveredPast(server, double, outcomes.get(double)!);
      },
    );
  },
);

it.each(JASMINE_FAKE_CLOCK_EXIT)(
  'jasmine exits 4 without the reporter too when %s is left installed',
  async (double) => {
    const outcome = await runJasmine({
      cwd: fixtures.doubles,
      withoutReporter: true,
      env: doubleEnv(double),
    });
    expect(outcome.stdout, outcome.stderr).toContain('6 specs, 1 failure');
    expect(outcome.code).toBe(4);
  },
);
