import fs from 'node:fs';
import path from 'node:path';
import { cleanEnv } from './environment.js';
import { FIXTURES_DIR } from './fixtures.js';
import { type ExpectedResult, resultsIn } from './parity-expected.js';
import { followDescendants } from './proc-stat.js';
import { frameworkBin, RUN_TIMEOUT_MS, type RunOutcome, runProcess } from './process.js';
import type { RunOptions } from './run-framework.js';

// TestCafe 3 runs, with @testrun/testcafe installed as TestCafe's plugin `testcafe-reporter-testrun`
// (the workspace's alias of it), in Debian's Chromium: TestCafe finds it itself (`chromium`),
// downloading nothing.

/** TestCafe's fixture project: tests/cart.test.js and tests/account.test.js (TESTCAFE_RESULTS). */
export const TESTCAFE_FIXTURE = path.join(FIXTURES_DIR, 'testcafe');

/** One headless Chromium; as root (CI containers) it needs --no-sandbox. */
export const TESTCAFE_CHROMIUM = 'chromium:headless --no-sandbox';
/** Two browsers of one Chromium, labelled `[chromium:headless]` and `[chromium:headless:emulation:width=800;height=600]`. */
export const TESTCAFE_TWO_BROWSERS = `${TESTCAFE_CHROMIUM},chromium:headless:emulation:width=800;height=600 --no-sandbox`;
/** Quarantine mode: a failed test runs again, up to three attempts, and passes with one passed attempt. */
export const TESTCAFE_QUARANTINE = ['-q', 'attemptLimit=3,successThreshold=1'];

/** Why TestCafe cannot run a browser here (its tests are skipped with it), or undefined. */
export function testcafeBrowserMissing(): string | undefined {
  const chromium = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
  return fs.existsSync(chromium) ? undefined : `${chromium} not found: apt-get install chromium`;
}

/**
 * How long one TestCafe run may take before it is ended as hung: a run starts a Chromium for
 * each browser, and quarantine mode runs failed tests thrice (the two-browser run takes under a
 * minute on a quiet machine).
 */
export const TESTCAFE_ATTEMPT_TIMEOUT_MS = RUN_TIMEOUT_MS;

/** A test's or hook's timeout: three attempts of untilTestCafeOpensItsBrowsers, and their servers. */
export const TESTCAFE_RUN_TIMEOUT_MS = 3 * TESTCAFE_ATTEMPT_TIMEOUT_MS + 30_000;

/** What runTestCafeCommand's outcome says (on stderr) of a run it ended because it hung. */
export const TESTCAFE_HUNG = /^testcafe-run: TestCafe was still running after \d+ ms, and was ended$/m;

/**
 * `testcafe <browsers> <args> -r spec,testrun` in `cwd` (the fixture by default), as a real
 * child process; `withoutReporter` reports with `spec` alone, `inConfigFile` with the fixture's
 * testrun.testcaferc.cjs instead (the reporter with REPORTER_OPTIONS_VAR's options, in code).
 * `args` are the sources and flags.
 */
export async function runTestCafe({
  browsers = TESTCAFE_CHROMIUM,
  args = ['tests/'],
  withoutReporter = false,
  inConfigFile = false,
  cwd = TESTCAFE_FIXTURE,
  env = {},
  bin = frameworkBin('testcafe'),
  nodePath,
  timeoutMs,
  onSpawn,
}: Omit<RunOptions, 'cwd'> & {
  browsers?: string;
  cwd?: string;
  inConfigFile?: boolean;
}): Promise<RunOutcome> {
  const initTimeout = args.includes('--browser-init-timeout')
    ? []
    : ['--browser-init-timeout', String(BROWSER_INIT_TIMEOUT_MS)];
  const reporters = inConfigFile
    ? ['--config-file', 'testrun.testcaferc.cjs']
    : ['-r', withoutReporter ? 'spec' : 'spec,testrun'];
  return runTestCafeCommand(
    nodePath ?? process.execPath,
    [bin, browsers, ...args, ...initTimeout, ...reporters],
    {
      cwd,
      env: cleanEnv(env),
      timeoutMs,
      onSpawn,
    },
  );
}

/**
 * Runs a command that runs TestCafe (TestCafe itself, `sh -c "npx testcafe …"`, `testrun run --
 * testcafe …`) to its end. A hung run is an outcome (TESTCAFE_HUNG on stderr, for
 * untilTestCafeOpensItsBrowsers to try again), not a rejection that would leave the attempt's
 * server open; what the run started and left (TestCafe that could not connect to a Chromium it
 * started exits without ending it: the suite's leftover check found one) is ended with it.
 */
export async function runTestCafeCommand(
  program: string,
  args: readonly string[],
  {
    cwd,
    env,
    timeoutMs = TESTCAFE_ATTEMPT_TIMEOUT_MS,
    onSpawn,
  }: Pick<RunOptions, 'env' | 'onSpawn' | 'timeoutMs'> & { cwd: string },
): Promise<RunOutcome> {
  let started: ReturnType<typeof followDescendants> | undefined;
  const startedAt = performance.now();
  return runProcess(program, args, {
    cwd,
    env,
    timeoutMs,
    onSpawn: (child) => {
      if (child.pid) started = followDescendants(child.pid);
      onSpawn?.(child);
    },
  })
    .catch(
      (error: Error): RunOutcome => ({
        code: null,
        signal: 'SIGKILL',
        stdout: '',
        stderr: `${error.message}\ntestcafe-run: TestCafe was still running after ${timeoutMs} ms, and was ended\n`,
        durationMs: Math.round(performance.now() - startedAt),
      }),
    )
    .finally(() => started?.end());
}

/**
 * What TestCafe prints when it could not open a browser it was given, its own failure and not
 * the reporter's: the browser failed to start, or started and never connected before the
 * browser init timeout (a CI run's Chromium never did in TestCafe's default 2 minutes).
 */
export const TESTCAFE_BROWSER_NOT_OPENED =
  /Unable to open the "[^"]*" browser due to the following error|Cannot establish one or more browser connections/;

/**
 * How long runTestCafe lets a browser take to connect: a Chromium that has not in 30 s on a
 * loaded machine (it connects in 1–3 s) is stuck, and a new attempt is cheaper than TestCafe's
 * default 2 minutes.
 */
const BROWSER_INIT_TIMEOUT_MS = 30_000;

/**
 * Runs `attempt` (a server, a spool and a TestCafe run of its own) again, at most twice, while
 * TestCafe says it could not open a browser, or hung: on a loaded machine (four busy loops beside
 * the suite) Chromium's debugging port sometimes reset TestCafe's first connection (ECONNRESET)
 * before any test ran, in one CI run a Chromium never connected at all, and in another a
 * two-browser run sat with both Chromiums open until it was ended. The reporter's
 * part then, a failed result of the run spooled on the way out, is proven by its own test
 * (compat/testcafe.test.ts, "a browser does not start"). The last attempt is answered whatever
 * happened.
 */
export async function untilTestCafeOpensItsBrowsers<
  T extends { outcome: RunOutcome; server?: { close(): Promise<void> } },
>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    const done = await attempt();
    const { stdout, stderr } = done.outcome;
    const output = stdout + stderr;
    if (tries === 3 || !(TESTCAFE_BROWSER_NOT_OPENED.test(output) || TESTCAFE_HUNG.test(output))) return done;
    await done.server?.close();
  }
}

/**
 * What the fixture stores in one browser, in quarantine mode: TestCafe's own verdicts
 * (`keeps the basket on reload` passed on its second attempt).
 */
export const TESTCAFE_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('tests/cart.test.js', [
    ['cart > adds an item', 'passed'],
    ['cart > applies a coupon', 'failed'],
    ['cart > ships abroad', 'skipped'],
    ['cart > keeps the basket on reload', 'passed'],
    ['cart > opens the checkout', 'failed'],
  ]),
  ...resultsIn('tests/account.test.js', [
    ['search > finds a product', 'skipped'],
    ['account > signs in', 'passed'],
  ]),
];

/** TESTCAFE_RESULTS under each of TESTCAFE_TWO_BROWSERS' labels. */
export const TESTCAFE_TWO_BROWSER_RESULTS: readonly ExpectedResult[] = [
  'chromium:headless',
  'chromium:headless:emulation:width=800;height=600',
].flatMap((label) =>
  TESTCAFE_RESULTS.map((result) => ({ ...result, testSuite: `[${label}] ${result.testSuite}` })),
);
