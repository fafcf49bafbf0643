import fs from 'node:fs';
import {
  closedPortUrl,
  identities,
  playwrightFixtures,
  REPORTER_OPTIONS_VAR,
  readSpoolLines,
  replaySpool,
  reporterEnv,
  runPlaywright,
  startTestServer,
  type TestServer,
  testrunLines,
} from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';

// A Playwright run that is stopped before its end (--max-failures, --global-timeout,
// Ctrl-C) still ends the reporter: what finished is delivered, or spooled when the
// service is down; tests that never ran are no results, and the summary says how many.
// The fixture runs in one worker: three passing tests, one failing, then a test that
// never ends and one after it that never starts.

const cwd = playwrightFixtures.interrupted;

const FINISHED = [
  { testSuite: 'a-passes.test.js', testCase: 'first file > one', status: 'passed' },
  { testSuite: 'a-passes.test.js', testCase: 'first file > two', status: 'passed' },
  { testSuite: 'a-passes.test.js', testCase: 'first file > three', status: 'passed' },
  { testSuite: 'b-fails.test.js', testCase: 'fails', status: 'failed' },
];

async function storedOnce(server: TestServer) {
  const runs = await server.server.store.runs();
  expect(runs).toHaveLength(1);
  return identities(await server.server.store.results(runs[0]!.id));
}

describe('a Playwright run stopped before its end', () => {
  it('delivers what finished before --max-failures stopped it, and says what did not run', async () => {
    const server = await startTestServer();
    const outcome = await runPlaywright({ cwd, args: ['--max-failures=1'], env: reporterEnv(server) });

    expect(await storedOnce(server), outcome.stderr).toEqual(identities(FINISHED));
    expect(testrunLines(outcome.stderr)).toEqual([
      expect.stringMatching(/^testrun: 4 results → run .*; 2 tests did not run, not reported$/),
    ]);
    expect(outcome.code).toBe(1);
  });

  it('spools what finished when the service is down, and replay delivers it', async () => {
    const apiKey = 'interrupted-key-1234';
    const env = reporterEnv(
      { url: await closedPortUrl(), apiKey },
      { [REPORTER_OPTIONS_VAR]: JSON.stringify({ flushTimeout: 1500 }) },
    );
    const outcome = await runPlaywright({ cwd, args: ['--max-failures=1'], env });
    expect(testrunLines(outcome.stderr).at(-1)).toMatch(/4 spooled to .*npx @testrun\/cli replay/);
    const spooled = readSpoolLines(env.TESTRUN_SPOOL_DIR!).filter((line) => line.type === 'batch');
    expect(identities(spooled.flatMap((line) => line.results as never[]))).toEqual(identities(FINISHED));
    expect(outcome.code).toBe(1);

    const server = await startTestServer({ apiKey });
    const replayed = await replaySpool(env.TESTRUN_SPOOL_DIR!, server, ['--ignore-recorded-url']);
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(fs.readdirSync(env.TESTRUN_SPOOL_DIR!)).toEqual([]);
    expect(await storedOnce(server)).toEqual(identities(FINISHED));
  });

  it('delivers what finished before Ctrl-C (SIGINT), and exits as Playwright does', async () => {
    const server = await startTestServer();
    let pid: number | undefined;
    const running = runPlaywright({ cwd, env: reporterEnv(server), onSpawn: (child) => (pid = child.pid) });
    // The files before the endless test have finished once their results are on the server.
    await waitFor(async () => (await server.server.store.allResults()).length === FINISHED.length);
    process.kill(pid!, 'SIGINT');
    const outcome = await running;

    expect(await storedOnce(server), outcome.stderr).toEqual(identities(FINISHED));
    // Playwright ends the run itself on SIGINT: its end, interrupted, goes to the spool at once,
    // as a cancelled process's does, for a replay to send (the process does not wait for it).
    // The failed test's error context, which Playwright attaches, went with its result.
    expect(testrunLines(outcome.stderr)).toEqual([
      expect.stringMatching(
        /^testrun: 4 results → run .*; the run's end \(interrupted\) spooled to .*: send it with `npx @testrun\/cli replay --dir .*`; 1 file uploaded \(\d+ B\); 2 tests did not run, not reported$/,
      ),
    ]);
    expect(outcome.code).toBe(130);
  });

  it('delivers what finished before --global-timeout, and the timeout as a failed result of the run', async () => {
    const server = await startTestServer();
    // Long enough for the files before the endless test to finish and for it to start on a
    // loaded machine: at 8 s, under a load of 15, the timeout came before it started; at 12 s,
    // under a load of 10 with the suite's other files, too.
    const running = runPlaywright({ cwd, args: ['--global-timeout=25000'], env: reporterEnv(server) });
    const outcome = await running;

    const stored = await storedOnce(server);
    // The endless test is failed by the timeout; the test after it never starts.
    expect(stored, outcome.stderr).toEqual(
      identities([
        ...FINISHED,
        { testSuite: 'c-never-ends.test.js', testCase: 'never ends', status: 'failed' },
        ...stored.filter((result) => result.testSuite === '(run)'),
      ]),
    );
    expect(stored.filter((result) => result.testSuite === '(run)')[0]).toEqual({
      testSuite: '(run)',
      testCase: expect.stringMatching(/^\(unhandled error\) Timed out waiting 25s for the /),
      status: 'failed',
    });
    expect(testrunLines(outcome.stderr)).toEqual([
      expect.stringMatching(/^testrun: \d+ results → run .*; 1 test did not run, not reported$/),
    ]);
    expect(outcome.code).toBe(1);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not true after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
