import { fixtures } from './fixtures.js';
import { type ExpectedResult, PARITY_RESULTS, PLAYWRIGHT_PARITY_RESULTS } from './parity-expected.js';
import { playwrightFixtures, runPlaywright } from './playwright.js';
import type { RunOutcome } from './process.js';
import { type RunOptions, runJest, runVitest } from './run-framework.js';

/** The fixtures every framework has, each holding the same tests in that framework's own form. */
export interface FrameworkFixtures {
  passing: string;
  streaming: string;
  oddNames: string;
  parity: string;
  /** A fast file, and a slow one still running when a test cancels the job. */
  cancelled: string;
}

export interface Framework {
  name: 'vitest' | 'jest' | 'playwright';
  /** The npm package users install to run it, and the name of its command. */
  packageName: string;
  binName: string;
  run(options: RunOptions): Promise<RunOutcome>;
  /** Where this framework's copy of each shared fixture lives. */
  fixtures: FrameworkFixtures;
  /** What its parity fixture stores, run with PARITY_REPORTER_OPTIONS. */
  parityResults: readonly ExpectedResult[];
}

/** Every framework, for tests that hold the same promise under each (`describe.each(FRAMEWORKS)`). */
export const FRAMEWORKS: readonly Framework[] = [
  {
    name: 'vitest',
    packageName: 'vitest',
    binName: 'vitest',
    run: runVitest,
    fixtures,
    parityResults: PARITY_RESULTS,
  },
  {
    name: 'jest',
    packageName: 'jest',
    binName: 'jest',
    run: runJest,
    fixtures,
    parityResults: PARITY_RESULTS,
  },
  {
    name: 'playwright',
    packageName: '@playwright/test',
    binName: 'playwright',
    run: runPlaywright,
    fixtures: playwrightFixtures,
    parityResults: PLAYWRIGHT_PARITY_RESULTS,
  },
];

/** What the `passing` fixture stores, framework aside: todo (Playwright: fixme) is sent as 'skipped' by default. */
export const PASSING_RESULTS = [
  { testSuite: 'math.test.js', testCase: 'math > adds', status: 'passed' },
  { testSuite: 'math.test.js', testCase: 'math > multiplies', status: 'passed' },
  { testSuite: 'math.test.js', testCase: 'divides', status: 'passed' },
  { testSuite: 'text.test.js', testCase: 'text > trims', status: 'passed' },
  { testSuite: 'text.test.js', testCase: 'text > pads', status: 'passed' },
  { testSuite: 'text.test.js', testCase: 'text > wraps long lines', status: 'skipped' },
  { testSuite: 'text.test.js', testCase: 'text > hyphenates', status: 'skipped' },
] as const;

/** The fields that identify a stored result, sorted, for comparing result sets. */
export function identities(results: readonly { testSuite: string; testCase: string; status: string }[]) {
  return results
    .map(({ testSuite, testCase, status }) => ({ testSuite, testCase, status }))
    .sort((a, b) => `${a.testSuite}\n${a.testCase}`.localeCompare(`${b.testSuite}\n${b.testCase}`));
}

export { fixtures };

/** The cases of the outside-tests fixture (its cases.cjs): each fails a run outside any test. */
export const OUTSIDE_TEST_CASES = [
  'late-error',
  'rejection',
  'process-exit',
  'worker-crash',
  'no-tests',
  'setup-file-throws',
  'global-setup-throws',
  'environment-fails',
] as const;
export type OutsideTestCase = (typeof OUTSIDE_TEST_CASES)[number];

/**
 * Vitest and Jest, for tests whose fixtures use their globals (describe/it), such as the
 * projects, monorepo and outside-tests fixtures; Playwright's own e2e tests cover it there.
 */
export const VITEST_AND_JEST = FRAMEWORKS.filter(
  (framework): framework is Framework & { name: 'vitest' | 'jest' } => framework.name !== 'playwright',
);
