import { createRequire } from 'node:module';
import path from 'node:path';
import { cleanEnv } from './environment.js';
import { FIXTURES_DIR } from './fixtures.js';
import { type ExpectedResult, PARITY_RESULTS, resultsIn } from './parity-expected.js';
import { type RunOutcome, runProcess } from './process.js';
import type { RunOptions } from './run-framework.js';

/**
 * Jasmine's fixture projects, each with a spec/support/without-reporter.json for runs without
 * the reporter. Unless said otherwise, spec/support/jasmine.json loads `@testrun/jasmine/register`.
 */
export const jasmineFixtures = {
  /**
   * Every mapping case (xit, pending(), xdescribe, failing beforeAll/beforeEach/afterEach/afterAll,
   * a describe body that throws, a late error); spec/support/parallel.mjs is its --parallel
   * configuration, with the reporter in `reporters` and a spec file that fails to load.
   */
  mapping: path.join(FIXTURES_DIR, 'jasmine', 'mapping'),
  /** fit and fdescribe in one file, plain specs in another. */
  focused: path.join(FIXTURES_DIR, 'jasmine', 'focused'),
  /** One passing spec; a helper adds the reporter with options in code (project `in-code`, failOnError); spec/support/twice.mjs adds it in `reporters` and `requires` register. */
  inCode: path.join(FIXTURES_DIR, 'jasmine', 'in-code'),
  /** Three fast files, then one whose spec waits until their results are on the server. */
  streaming: path.join(FIXTURES_DIR, 'jasmine', 'streaming'),
  /** A fast file, and a slow one still running when a test cancels the job (FIXTURE_WAITING_FILE). */
  cancelled: path.join(FIXTURES_DIR, 'jasmine', 'cancelled'),
  /** The shared parity fixture's tests in Jasmine's form; spec/support/jasmine.mjs adds the reporter (JASMINE_PARITY_RESULTS). */
  parity: path.join(FIXTURES_DIR, 'jasmine', 'parity'),
} as const;

/** The --parallel configuration of the mapping fixture. */
export const JASMINE_PARALLEL_ARGS = ['--parallel=2', '--config=spec/support/parallel.mjs'] as const;

/** The --parallel configuration of the doubles fixture (fixtures.doubles): setup.cjs in the main process and the workers. */
export const JASMINE_DOUBLES_PARALLEL_ARGS = ['--parallel=2', '--config=spec/support/parallel.mjs'] as const;

/**
 * Jasmine's bin script as installed for `fromDir` (this repo's install by default). Jasmine's
 * exports map hides its package.json, which frameworkBin reads: the bin is found beside its main module.
 */
export function jasmineBin(fromDir?: string): string {
  const require = createRequire(fromDir ? path.join(fromDir, 'package.json') : import.meta.url);
  return path.join(path.dirname(require.resolve('jasmine')), '..', 'bin', 'jasmine.js');
}

/** `jasmine` in `cwd`, as a real child process; `withoutReporter` leaves the fixture's config out. */
export function runJasmine({
  args = [],
  withoutReporter = false,
  bin = jasmineBin(),
  env = {},
  cwd,
  nodePath,
  timeoutMs,
  onSpawn,
}: RunOptions): Promise<RunOutcome> {
  const reporterArgs = withoutReporter ? ['--config=spec/support/without-reporter.json'] : [];
  return runProcess(nodePath ?? process.execPath, [bin, ...reporterArgs, ...args], {
    cwd,
    env: cleanEnv(env),
    timeoutMs,
    onSpawn,
  });
}

/** What a serial run of the mapping fixture stores (packages/jasmine/README.md#how-tests-become-results). */
export const JASMINE_MAPPING_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('spec/cart.spec.js', [
    ['a test outside any describe', 'passed'],
    ['cart > totals > sums line items', 'passed'],
    ['cart > totals > rounds half cents to even', 'skipped'],
    ['cart > totals > is pending without a function', 'skipped'],
    ['cart > totals > calls pending()', 'skipped'],
    ['cart > totals > is not applicable here', 'skipped'],
    ['cart > fails on purpose', 'failed'],
    ['cart > legacy checkout > still charges the card', 'skipped'],
  ]),
  // Jasmine runs the spec declared before the throw; the file fails as well.
  ...resultsIn('spec/describe-throws.spec.js', [
    ['a describe whose body throws > is declared before the throw', 'passed'],
    ['(file failed to run)', 'failed'],
  ]),
  ...resultsIn('spec/each-fails.spec.js', [
    ['each > first under a failing beforeEach', 'failed'],
    ['each > second under a failing beforeEach', 'failed'],
    ['after each > passes but its afterEach fails', 'failed'],
  ]),
  ...resultsIn('spec/late-error.spec.js', [
    ['late > passes, then its timer throws', 'failed'],
    ['late > waits for the timer', 'passed'],
  ]),
  ...resultsIn('spec/setup-fails.spec.js', [
    ['database > reads a row', 'failed'],
    ['database > nested > writes a row', 'failed'],
    ['runs outside the failing block', 'passed'],
  ]),
  ...resultsIn('spec/teardown-fails.spec.js', [
    ['teardown > passes before the teardown', 'passed'],
    ['(file failed to run)', 'failed'],
  ]),
  ...resultsIn('spec/top-teardown-fails.spec.js', [
    ['passes before a top-level teardown', 'passed'],
    ['(file failed to run)', 'failed'],
  ]),
];

/**
 * What a --parallel run of the mapping fixture stores: the serial results, but parallel mode
 * refuses a top-level afterAll (its file fails to load, its spec never runs), and the file that
 * requires a missing module fails to load too: each is one `(file failed to run)`.
 */
export const JASMINE_PARALLEL_MAPPING_RESULTS: readonly ExpectedResult[] = [
  ...JASMINE_MAPPING_RESULTS.filter(
    (result) => !(result.testSuite === 'spec/top-teardown-fails.spec.js' && result.status === 'passed'),
  ),
  ...resultsIn('load-error/import-throws.spec.js', [['(file failed to run)', 'failed']]),
];

/** Files of the parity fixture with a hook outside any describe: --parallel refuses them. */
const JASMINE_TOP_LEVEL_HOOK_FILES: readonly string[] = [
  'setup-fails-at-top.test.js',
  'teardown-fails.test.js',
];

/**
 * What the Jasmine version of the parity fixture stores run with --parallel: PARITY_RESULTS,
 * with Jasmine's own verdicts where it has different ones (packages/jasmine/README.md lists them):
 * - no todo: a spec without a function is pending, like xit: skipped;
 * - a describe body that throws: Jasmine still runs the spec declared before the throw;
 * - parallel mode refuses a top-level beforeAll or afterAll: such a file fails to load, one
 *   `(file failed to run)` instead of its specs.
 */
export const JASMINE_PARITY_RESULTS: readonly ExpectedResult[] = [
  ...PARITY_RESULTS.flatMap((result) => {
    if (JASMINE_TOP_LEVEL_HOOK_FILES.includes(result.testSuite)) return [];
    if (result.status === 'todo') return [{ ...result, status: 'skipped' }];
    if (result.testSuite !== 'describe-throws.test.js') return [result];
    const declared = 'a describe whose body throws > is declared before the throw';
    return [{ ...result, testCase: declared, status: 'passed' }, result];
  }),
  ...JASMINE_TOP_LEVEL_HOOK_FILES.flatMap((file) => resultsIn(file, [['(file failed to run)', 'failed']])),
];

/**
 * The files of the parity fixture a serial Jasmine run cannot share with the others: one
 * fails to load (Jasmine stops before any spec) and a top-level beforeAll is every file's.
 */
export const JASMINE_PARALLEL_ONLY_FILES: readonly string[] = [
  'import-throws.test.js',
  'setup-fails-at-top.test.js',
];

/**
 * What a serial run of the parity fixture's other files stores: the --parallel results of
 * those files, but a top-level afterAll runs (once, at the end of the run) and fails its file
 * as in PARITY_RESULTS.
 */
export const JASMINE_SERIAL_PARITY_RESULTS: readonly ExpectedResult[] = [
  ...JASMINE_PARITY_RESULTS.filter(
    ({ testSuite }) =>
      !JASMINE_PARALLEL_ONLY_FILES.includes(testSuite) && testSuite !== 'teardown-fails.test.js',
  ),
  ...PARITY_RESULTS.filter(({ testSuite }) => testSuite === 'teardown-fails.test.js'),
];
