import { fixtures, type RunOptions, type RunOutcome, runJest, runVitest } from './spawn.js';

export interface Framework {
  name: 'vitest' | 'jest';
  run(options: RunOptions): Promise<RunOutcome>;
}

/** Both frameworks, for tests that hold the same promise under each (`describe.each(FRAMEWORKS)`). */
export const FRAMEWORKS: readonly Framework[] = [
  { name: 'vitest', run: runVitest },
  { name: 'jest', run: runJest },
];

/** What the `passing` fixture stores, framework aside: todo is sent as 'skipped' by default. */
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
