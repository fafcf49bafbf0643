import fs from 'node:fs';
import os from 'node:os';
import {
  CANCELLED_REPORTER_OPTIONS,
  CLI_BIN,
  cancelledRun,
  ENDS_ITSELF_ON,
  FRAMEWORKS,
  type Framework,
  identities,
  readSpoolLines,
  reporterEnv,
  runLimiter,
  startTestServer,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// `testrun run -- <runner>` cancelled as a CI job is: the signal goes to `testrun run`, which
// forwards it to the runner's process group. It must exit as the runner alone exits on that
// signal (ENDS_ITSELF_ON, measured without testrun; else 128 + n, as a shell reports a death
// by signal), keep every finished test (stored, or spooled by the reporter's exit guard), and
// end the one run interrupted. One signal per framework, the two alternating: how testrun
// forwards either is proven once with small programs (packages/cli/test/run/run.e2e.test.ts).
// What testrun run does around a runner that ends normally is e2e/packed-install.test.ts's.

/** Each framework's signal here: SIGINT where the runner ends itself on it, SIGTERM (CI's cancel) elsewhere. */
const SIGNAL: Record<Framework['name'], NodeJS.Signals> = {
  vitest: 'SIGINT',
  jest: 'SIGTERM',
  playwright: 'SIGINT',
  mocha: 'SIGTERM',
  'node-test': 'SIGTERM',
};

const FINISHED = [
  ...['fast > adds', 'fast > subtracts', 'fast > multiplies'].map((testCase) => ({
    testSuite: 'fast.test.js',
    testCase,
    status: 'passed',
  })),
  { testSuite: 'slow.test.js', testCase: 'slow > finishes before the job is cancelled', status: 'passed' },
];

const limited = runLimiter();

describe.concurrent.each(FRAMEWORKS)('testrun run around $name', (framework) => {
  const signal = SIGNAL[framework.name];
  const alone = ENDS_ITSELF_ON[framework.name]?.[signal] ?? 128 + os.constants.signals[signal];

  it(`exits on ${signal} as ${framework.name} alone does, keeps every finished test, and ends the one run interrupted`, async () => {
    const server = await startTestServer();
    const env = reporterEnv(server, { FIXTURE_REPORTER_OPTIONS: CANCELLED_REPORTER_OPTIONS });
    const outcome = await limited(() =>
      framework.run({
        cwd: framework.fixtures.cancelled,
        ...cancelledRun(env, signal),
        wrap: [process.execPath, CLI_BIN, 'run', '--'],
      }),
    );
    expect({ code: outcome.code, signal: outcome.signal }, outcome.stderr).toEqual({
      code: alone,
      signal: null,
    });

    const [run, ...others] = await server.server.store.runs();
    expect(others).toEqual([]);
    expect(run).toMatchObject({ framework: framework.name });
    expect(await server.server.store.endOf(run!.id)).toMatchObject({ status: 'interrupted' });
    // What had finished is stored, or waits in the spool for replay: each test once, nothing lost.
    const spooled = fs.existsSync(env.TESTRUN_SPOOL_DIR!)
      ? readSpoolLines(env.TESTRUN_SPOOL_DIR!)
          .filter((line) => line.type === 'batch')
          .flatMap((line) => line.results as { testSuite: string; testCase: string; status: string }[])
      : [];
    const kept = [...(await server.server.store.results(run!.id)), ...spooled].filter(
      (result) =>
        result.testCase !== 'slow > waits for the job to be cancelled' &&
        !/^\(unhandled error\) the process exited/.test(result.testCase),
    );
    expect(identities(kept)).toEqual(identities(FINISHED));
    expect(outcome.stderr).toMatch(
      new RegExp(
        `^testrun run: run ${run!.id} marked interrupted \\(the command (exited ${alone}|ended by ${signal})\\)`,
        'm',
      ),
    );
  });
});
