import {
  AWAIT_RUNS_TIMEOUT_MS,
  DOUBLES_BEFORE_THE_REPORTER,
  DOUBLES_IN_A_TEST,
  doubleEnv,
  expectDeliveredPast,
  fixtures,
  type RunOutcome,
  reporterEnv,
  runJest,
  runMocha,
  runNodeTest,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, it } from 'vitest';

// Where a runner runs the tests in the reporter's own process (Mocha serial, Jest in band,
// the main process of node --test, which loads --require files too), the tests' doubles are
// installed in the process that delivers: nock and MSW refusing every connection, Node's
// HTTP entry points stubbed, fake clocks, an emptied environment, a removed working
// directory. None of them may reach delivery (docs/reliability.md, "What a test may do to
// its process"); the fixture's doubles.cjs says what each does and when. node --test with
// isolation none (Node 22+) is in compat/.

type Runner = (env: Record<string, string | undefined>) => Promise<RunOutcome>;

const RUNNERS: [name: string, doubles: string[], run: Runner][] = [
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
    DOUBLES_BEFORE_THE_REPORTER.filter((double) => double !== 'fake-timers-first'),
    (env) => runNodeTest({ cwd: fixtures.doubles, env }),
  ],
];

describe.each(RUNNERS)('%s, with a test double installed and never undone', (_runner, doubles, run) => {
  let server: TestServer;
  const outcomes = new Map<string, RunOutcome>();

  beforeAll(async () => {
    server = await startTestServer();
    await Promise.all(
      doubles.map(async (double) => outcomes.set(double, await run(reporterEnv(server, doubleEnv(double))))),
    );
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  it.each(doubles)(
    '%s: stores every result once, on the first attempt, and keeps the exit code',
    (double) => {
      expectDeliveredPast(server, double, outcomes.get(double)!);
    },
  );
});
