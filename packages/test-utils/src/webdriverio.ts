import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanEnv } from './environment.js';
import { FIXTURES_DIR } from './fixtures.js';
import { type ExpectedResult, MOCHA_PARITY_RESULTS, resultsIn } from './parity-expected.js';
import { RUN_TIMEOUT_MS, type RunOutcome, runProcess } from './process.js';

// WebdriverIO's fixture projects (fixtures/webdriverio): each config names @testrun/webdriverio
// as a reporter and its launcher service, and runs Debian's chromium through chromedriver
// (fixtures/webdriverio/chromium.cjs), downloading nothing.

const WDIO_FIXTURES = path.join(FIXTURES_DIR, 'webdriverio');

export const webdriverioFixtures = {
  /** Mocha framework, two capabilities, maxInstances 2; retry.conf.mjs: a flaky file and specFileRetries. */
  mocha: path.join(WDIO_FIXTURES, 'mocha'),
  jasmine: path.join(WDIO_FIXTURES, 'jasmine'),
  cucumber: path.join(WDIO_FIXTURES, 'cucumber'),
  /**
   * One set of features (repeated names, outlines, a Rule, a failing Background, an undefined
   * and a pending step) that `cucumber-js` runs with @testrun/cucumber (cucumber.cjs) and `wdio`
   * with @testrun/webdriverio (wdio.conf.mjs): both must store the same results.
   */
  cucumberParity: path.join(WDIO_FIXTURES, 'cucumber-parity'),
  /** The package README's wdio.conf.mjs, run by run.conf.mjs once a test wrote it there. */
  readme: path.join(WDIO_FIXTURES, 'readme'),
  /** A capability whose chromedriver does not exist: no session starts. */
  sessionFails: path.join(WDIO_FIXTURES, 'session-fails'),
  /**
   * The shared streaming fixture's Mocha files in two workers at once (the fast files, then
   * last.test.js, which waits for their results on the server), run as `parity` is.
   */
  streaming: {
    cwd: path.join(FIXTURES_DIR, 'mocha', 'streaming'),
    config: path.join(WDIO_FIXTURES, 'shared', 'streaming.conf.mjs'),
  },
  /**
   * The shared parity fixture's Mocha files under WebdriverIO's Mocha framework
   * (WDIO_PARITY_RESULTS): run `config` from `cwd`, the Mocha parity folder, so that the files
   * are named as under every runner. FIXTURE_WITHOUT_REPORTER=1 runs it without ours;
   * FIXTURE_TWO_WORKERS=1 runs two of its workers (WDIO_TWO_WORKER_RESULTS).
   */
  parity: {
    cwd: path.join(FIXTURES_DIR, 'mocha', 'parity'),
    config: path.join(WDIO_FIXTURES, 'shared', 'parity.conf.mjs'),
  },
} as const;

/** Why a real browser cannot run here (the tests that need one are skipped with it), or undefined. */
export function missingBrowser(): string | undefined {
  const files = [
    process.env.CHROMIUM_BIN || '/usr/bin/chromium',
    process.env.CHROMEDRIVER_BIN || '/usr/bin/chromedriver',
  ];
  const missing = files.filter((file) => !fs.existsSync(file));
  return missing.length === 0
    ? undefined
    : `${missing.join(' and ')} not found: apt-get install chromium chromium-driver (or set CHROMIUM_BIN and CHROMEDRIVER_BIN)`;
}

/**
 * A `wdio run` starts a Chromium in every worker: on two cores shared with another test file's
 * runs, one took over 90 s (a CI run saw the parity fixture's, at a load of 18).
 */
export const WDIO_RUN_TIMEOUT_MS = 2 * RUN_TIMEOUT_MS;
/** For a test or hook that awaits `wdio run`s at once: long enough for one to time out with its output first. */
export const WDIO_AWAIT_RUNS_TIMEOUT_MS = WDIO_RUN_TIMEOUT_MS + 15_000;

/** @wdio/cli's entry, resolved as WebdriverIO resolves its own dependencies. */
const wdioCli = () => createRequire(import.meta.url).resolve('@wdio/cli');

/**
 * NODE_OPTIONS that keep WebdriverIO from loading tsx into every worker. Its launcher adds
 * `--import <tsx's loader>` to NODE_OPTIONS unless they already name that loader, whatever the
 * config's language; tsx's module hooks then cost each worker ~0.9 CPU-s of its ~1.7 (measured:
 * the Mocha fixture's four workers, 11.6 CPU-s with tsx and 8.0 without). The fixtures are
 * JavaScript: a flag that does nothing (`--disable-warning` of a warning no one raises) names
 * the loader, and WebdriverIO leaves NODE_OPTIONS alone. The README's configuration keeps
 * WebdriverIO's default (`runWdio`'s `withTsx`, in compat/webdriverio.test.ts).
 */
function withoutTsx(nodeOptions: string | undefined): string {
  const tsxPackage = createRequire(wdioCli()).resolve('tsx/package.json');
  const loader = path.join(path.dirname(tsxPackage), 'dist', 'loader.mjs');
  // A tsx whose loader moved would be loaded again unnoticed, and the suite slower: say so.
  if (!fs.existsSync(loader)) throw new Error(`tsx's loader is not at ${loader}: update withoutTsx`);
  return `${nodeOptions ?? ''} --disable-warning=${pathToFileURL(loader).href}`.trim();
}

/**
 * `wdio run <config>` in `cwd`, as a real child process, without tsx in its workers unless
 * `withTsx` (see withoutTsx). WebdriverIO puts each worker's id in front of every line the
 * worker writes (`[0-1] testrun: …`); the outcome has them taken off, so that testrunLines
 * finds the reporters' lines.
 */
export async function runWdio({
  cwd,
  config = 'wdio.conf.mjs',
  env = {},
  withTsx = false,
}: {
  cwd: string;
  config?: string;
  env?: Record<string, string | undefined>;
  withTsx?: boolean;
}): Promise<RunOutcome> {
  // @wdio/cli's exports map hides its package.json, which frameworkBin reads: the bin is beside its build.
  const bin = path.join(path.dirname(wdioCli()), '..', 'bin', 'wdio.js');
  const runEnv = cleanEnv(env);
  if (!withTsx) runEnv.NODE_OPTIONS = withoutTsx(runEnv.NODE_OPTIONS);
  const outcome = await runProcess(process.execPath, [bin, 'run', config], {
    cwd,
    env: runEnv,
    timeoutMs: WDIO_RUN_TIMEOUT_MS,
  });
  const unprefixed = (text: string) => text.replace(/^\[\d+-\d+\] /gm, '');
  return { ...outcome, stdout: unprefixed(outcome.stdout), stderr: unprefixed(outcome.stderr) };
}

/** What the Mocha fixture stores for one capability's label (the run has two: `chrome` and `chrome-2`). */
export function wdioMochaResults(label: string): ExpectedResult[] {
  return [
    ...resultsIn(`[${label}] specs/cart.spec.js`, [
      ['cart > opens a blank page', 'passed'],
      ['cart > fails on purpose', 'failed'],
      ['cart > is skipped', 'skipped'],
      ['cart > totals > passes on its retry', 'passed'],
    ]),
    // WebdriverIO reports nothing of the tests a failed `before` prevented: the file fails.
    ...resultsIn(`[${label}] specs/setup.spec.js`, [
      ['checkout > runs beside the failing block', 'passed'],
      ['(file failed to run)', 'failed'],
    ]),
  ];
}

/** Parity files whose `before` hook fails: WebdriverIO reports none of the tests it prevented. */
const WDIO_FAILED_SETUP_FILES: readonly string[] = ['setup-fails.test.js', 'setup-fails-at-top.test.js'];

/**
 * What the parity fixture stores under WebdriverIO's Mocha framework: MOCHA_PARITY_RESULTS
 * (a todo is pending, skipped), with WebdriverIO's own verdicts where it has different ones
 * (packages/webdriverio/README.md lists them):
 * - a `before` hook that fails is reported as a failed hook, never as the tests it prevented
 *   (WebdriverIO's Mocha adapter emits no test events for them): those tests have no results
 *   and their file is one `(file failed to run)`;
 * - a describe body that throws: WebdriverIO logs that the file did not load, then still runs
 *   the test declared before the throw (as Jasmine does); the file fails besides.
 */
export const WDIO_PARITY_RESULTS: readonly ExpectedResult[] = [
  ...MOCHA_PARITY_RESULTS.flatMap((result) => {
    if (WDIO_FAILED_SETUP_FILES.includes(result.testSuite) && result.status === 'failed') return [];
    if (result.testSuite !== 'describe-throws.test.js') return [result];
    const declared = 'a describe whose body throws > is declared before the throw';
    return [{ ...result, testCase: declared, status: 'passed' }, result];
  }),
  ...WDIO_FAILED_SETUP_FILES.flatMap((file) => resultsIn(file, [['(file failed to run)', 'failed']])),
];

/** The files a parity run with FIXTURE_TWO_WORKERS=1 runs (shared/parity.conf.mjs). */
const WDIO_TWO_WORKER_FILES: readonly string[] = [
  'cart.test.js',
  'each.test.js',
  'names.test.js',
  'setup-fails.test.js',
  'teardown-fails.test.js',
];

/** What a parity run with FIXTURE_TWO_WORKERS=1 stores: WDIO_PARITY_RESULTS of its files. */
export const WDIO_TWO_WORKER_RESULTS: readonly ExpectedResult[] = WDIO_PARITY_RESULTS.filter((result) =>
  WDIO_TWO_WORKER_FILES.includes(result.testSuite),
);
