// What the parity fixture must store, written down once: the parity tests hold every
// framework to it, the version matrix (compat/) every supported version, the shard test
// the union of three shards.

/** A stored result without its duration, which no test can predict. */
export interface ExpectedResult {
  testSuite: string;
  testCase: string;
  status: string;
}

/** Reporter options for parity runs: `todo` is sent as itself (it is 'skipped' by default), to check it too. */
export const PARITY_REPORTER_OPTIONS = JSON.stringify({ statusMap: { todo: 'todo' } });

/** `cases` of one test file, as expected results. */
export function resultsIn(testSuite: string, cases: [testCase: string, status: string][]): ExpectedResult[] {
  return cases.map(([testCase, status]) => ({ testSuite, testCase, status }));
}

/** Every result of the parity fixture, under any supported Vitest or Jest, run with PARITY_REPORTER_OPTIONS. */
export const PARITY_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('cart.test.js', [
    ['cart > totals > sums line items', 'passed'],
    ['cart > totals > applies a percentage discount', 'passed'],
    ['cart > totals > rounds half cents to even', 'skipped'],
    ['cart > totals > supports gift cards', 'todo'],
    ['cart > fails on purpose', 'failed'],
    ['legacy checkout > still charges the card', 'skipped'],
    ['legacy checkout > with coupons > ignores expired coupons', 'skipped'],
    ['a test outside any describe', 'passed'],
  ]),
  ...resultsIn('each.test.js', [
    ['add > add(1, 1) = 2', 'passed'],
    ['add > add(2, 3) = 5', 'passed'],
    ['2 is 2.7 truncated', 'passed'],
    ['upper(abc) is ABC', 'passed'],
    ['upper(é) is É', 'passed'],
    ['-2 is a number (row 0)', 'passed'],
    ['0 is a number (row 1)', 'passed'],
    ['1 + 2 returns 3', 'passed'],
    ['4 + 5 returns 9', 'passed'],
    ['currency eur > has three letters', 'passed'],
    ['currency usd > has three letters', 'passed'],
    ['formats { x: 1 } as a string', 'passed'],
    ['formats null as a string', 'passed'],
    ['formats undefined as a string', 'passed'],
    ['formats text as a string', 'passed'],
    ['formats true as a string', 'passed'],
    ['formats {"a":1} as JSON', 'passed'],
    ['formats [1,2] as JSON', 'passed'],
  ]),
  ...resultsIn('names.test.js', [
    ['ünïcödé names > naïve café crème brûlée', 'passed'],
    ['ünïcödé names > 中文测试 and 日本語', 'passed'],
    ['ünïcödé names > 🚀 launches 🎉', 'passed'],
    ['separators > price > cost > zero', 'passed'],
  ]),
  ...resultsIn('import-throws.test.js', [['(file failed to run)', 'failed']]),
  ...resultsIn('describe-throws.test.js', [['(file failed to run)', 'failed']]),
  ...resultsIn('setup-fails.test.js', [
    ['database > reads a row', 'failed'],
    ['database > writes a row', 'failed'],
    ['runs outside the failing block', 'passed'],
  ]),
  ...resultsIn('setup-fails-at-top.test.js', [
    ['needs the setup', 'failed'],
    ['a block > needs it too', 'failed'],
  ]),
  ...resultsIn('teardown-fails.test.js', [
    ['passes before the teardown', 'passed'],
    ['(file failed to run)', 'failed'],
  ]),
];

/** Files of the parity fixture that fail while they load: under Playwright that stops the whole run, so they have a fixture of their own. */
export const LOAD_ERROR_FILES: readonly string[] = ['import-throws.test.js', 'describe-throws.test.js'];

/**
 * What the Playwright version of the parity fixture stores: PARITY_RESULTS wherever
 * Playwright has the concept, and Playwright's own verdict where it has a different one
 * (the README's mapping section lists the same differences):
 * - no `todo`: the fixture uses `test.fixme`, which is skipped;
 * - an `afterAll` that throws fails the file's last test, so that test is `failed` and the
 *   file needs no `(file failed to run)`;
 * - the files that fail to load are in `playwrightFixtures.loadErrors` (they stop a run).
 */
export const PLAYWRIGHT_PARITY_RESULTS: readonly ExpectedResult[] = PARITY_RESULTS.flatMap((result) => {
  if (LOAD_ERROR_FILES.includes(result.testSuite)) return [];
  if (result.status === 'todo') return [{ ...result, status: 'skipped' }];
  if (result.testSuite === 'teardown-fails.test.js') {
    return result.testCase === '(file failed to run)' ? [] : [{ ...result, status: 'failed' }];
  }
  return [result];
});

/**
 * What the Mocha version of the parity fixture stores (run with --parallel, as its
 * .mocharc says): PARITY_RESULTS, but Mocha has no todo: a test without a function is a
 * pending test like `it.skip`, skipped.
 */
export const MOCHA_PARITY_RESULTS: readonly ExpectedResult[] = PARITY_RESULTS.map((result) =>
  result.status === 'todo' ? { ...result, status: 'skipped' } : result,
);

/**
 * The files of the parity fixture a serial Mocha run cannot share with the others: one fails
 * to load (Mocha stops before any test) and a top-level hook is every file's in serial mode.
 */
export const MOCHA_PARALLEL_ONLY_FILES: readonly string[] = [
  ...LOAD_ERROR_FILES,
  'setup-fails-at-top.test.js',
];

/**
 * What the node:test version of the parity fixture stores: PARITY_RESULTS, with node:test's
 * own verdicts where it has different ones (the README's mapping section lists them):
 * - a skipped describe block is reported alone, its tests never are: no results;
 * - a test declared before a describe body throws is cancelled, a failed result that stands
 *   for the file instead of `(file failed to run)`.
 */
export const NODE_TEST_PARITY_RESULTS: readonly ExpectedResult[] = PARITY_RESULTS.flatMap((result) => {
  if (result.testCase.startsWith('legacy checkout > ')) return [];
  if (result.testSuite === 'describe-throws.test.js') {
    return [{ ...result, testCase: 'a describe whose body throws > is declared before the throw' }];
  }
  return [result];
});

/**
 * What node:test's `files` fixture stores, on every supported Node: a file that declares no
 * test (node:test's own passing test named with its path, absolute on Node 20, relative on
 * 22 and 24), a file that exits non-zero after its test passed, one that does not parse, and
 * a test with subtests, one of them started in a helper module.
 */
export const NODE_TEST_FILES_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('test/empty.test.js', [['test/empty.test.js', 'passed']]),
  ...resultsIn('test/exits-non-zero.test.js', [
    ['passes before the file exits non-zero', 'passed'],
    ['(file failed to run)', 'failed'],
  ]),
  ...resultsIn('test/syntax-error.test.js', [['(file failed to run)', 'failed']]),
  ...resultsIn('test/subtests.test.js', [
    ['checkout', 'passed'],
    ['checkout > adds the items', 'passed'],
    ['checkout > checks the totals in a helper', 'passed'],
  ]),
];

/** The projects of the parity fixture's two-project configuration, each of which runs every parity file. */
export const PARITY_PROJECTS = ['node', 'edge'] as const;

/** The config file of the parity fixture's two-project configuration, per framework (`--config`). */
export const PARITY_PROJECTS_CONFIG = {
  vitest: 'vitest.projects.config.mjs',
  jest: 'jest.projects.config.cjs',
} as const;

/**
 * Every result of the two-project configuration: each parity result once per project, told
 * apart by the project's name before the file (projectLabel 'auto' with two projects).
 */
export const PARITY_PROJECT_RESULTS: readonly ExpectedResult[] = PARITY_PROJECTS.flatMap((project) =>
  PARITY_RESULTS.map((result) => ({ ...result, testSuite: `[${project}] ${result.testSuite}` })),
);
