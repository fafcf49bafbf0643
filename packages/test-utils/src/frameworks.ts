import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fixtures, mochaFixtures, nodeTestFixtures } from './fixtures.js';
import { legsHere } from './legs.js';
import {
  type ExpectedResult,
  MOCHA_PARITY_RESULTS,
  NODE_TEST_PARITY_RESULTS,
  PARITY_RESULTS,
  PLAYWRIGHT_PARITY_RESULTS,
} from './parity-expected.js';
import { playwrightFixtures, runPlaywright } from './playwright.js';
import type { RunOutcome } from './process.js';
import { type RunOptions, runJest, runMocha, runNodeTest, runVitest } from './run-framework.js';

const requireFromHere = createRequire(import.meta.url);

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
  name: 'vitest' | 'jest' | 'playwright' | 'mocha' | 'node-test';
  /** The npm package users install to run it, and the name of its command (node:test: Node's own `node`). */
  packageName: string;
  binName: string;
  /** The version the reporter names in its User-Agent: the package's, or Node's for node:test. */
  version(): string;
  run(options: RunOptions): Promise<RunOutcome>;
  /** Where this framework's copy of each shared fixture lives. */
  fixtures: FrameworkFixtures;
  /** What its parity fixture stores, run with PARITY_REPORTER_OPTIONS. */
  parityResults: readonly ExpectedResult[];
  /** Arguments that run shard `index` (from 1) of `count` of the fixture in `cwd`. */
  shardArgs(index: number, count: number, cwd: string): string[];
  /** Whether the framework knows it runs a shard (the run is tagged `shard:i/n`). */
  knowsShards: boolean;
  /** Whether it retries a failed test (the odd-names fixture's retried test). */
  retries: boolean;
}

/** `--shard=i/n`, as Vitest, Jest and Playwright take it. */
const shardOption = (index: number, count: number) => [`--shard=${index}/${count}`];

/**
 * Mocha has no shards: a CI job runs its share of the files (`mocha $(circleci tests split)`).
 * Here each job ignores the others' share of the fixture's `*.test.js`, taken every `count`-th.
 */
function mochaShare(index: number, count: number, cwd: string): string[] {
  const files = fs
    .readdirSync(cwd)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  return files.filter((_, i) => i % count !== index - 1).flatMap((name) => ['--ignore', name]);
}

const packageVersion = (name: string) => () =>
  (requireFromHere(`${name}/package.json`) as { version: string }).version;

/** Every framework, for tests that hold the same promise under each (`describe.each(FRAMEWORKS)`). */
export const FRAMEWORKS: readonly Framework[] = [
  {
    name: 'vitest',
    packageName: 'vitest',
    binName: 'vitest',
    version: packageVersion('vitest'),
    run: runVitest,
    fixtures,
    parityResults: PARITY_RESULTS,
    shardArgs: shardOption,
    knowsShards: true,
    retries: true,
  },
  {
    name: 'jest',
    packageName: 'jest',
    binName: 'jest',
    version: packageVersion('jest'),
    run: runJest,
    fixtures,
    parityResults: PARITY_RESULTS,
    shardArgs: shardOption,
    knowsShards: true,
    retries: true,
  },
  {
    name: 'playwright',
    packageName: '@playwright/test',
    binName: 'playwright',
    version: packageVersion('@playwright/test'),
    run: runPlaywright,
    fixtures: playwrightFixtures,
    parityResults: PLAYWRIGHT_PARITY_RESULTS,
    shardArgs: shardOption,
    knowsShards: true,
    retries: true,
  },
  {
    name: 'mocha',
    packageName: 'mocha',
    binName: 'mocha',
    version: packageVersion('mocha'),
    run: runMocha,
    fixtures: mochaFixtures,
    parityResults: MOCHA_PARITY_RESULTS,
    shardArgs: mochaShare,
    knowsShards: false,
    retries: true,
  },
  {
    name: 'node-test',
    packageName: 'node',
    binName: 'node',
    version: () => process.versions.node,
    run: runNodeTest,
    fixtures: nodeTestFixtures,
    parityResults: NODE_TEST_PARITY_RESULTS,
    shardArgs: (index, count) => [`--test-shard=${index}/${count}`],
    knowsShards: true,
    // node:test has no retries.
    retries: false,
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
 * Vitest and Jest, for tests whose fixtures use their globals and expect (describe/it), such
 * as the projects, monorepo and outside-tests fixtures; Playwright's, Mocha's and node:test's
 * own e2e tests cover it there.
 */
export const VITEST_AND_JEST = FRAMEWORKS.filter(
  (framework): framework is Framework & { name: 'vitest' | 'jest' } =>
    framework.name === 'vitest' || framework.name === 'jest',
);

/** The frameworks whose legs of a shared e2e matrix this Vitest project runs (legs.ts). */
export function frameworksHere(): Framework[] {
  return legsHere(FRAMEWORKS, (framework) => framework.name);
}
