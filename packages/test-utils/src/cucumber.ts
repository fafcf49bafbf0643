import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cleanEnv } from './environment.js';
import { FIXTURES_DIR } from './fixtures.js';
import { type ExpectedResult, resultsIn } from './parity-expected.js';
import { frameworkBin, runProcess } from './process.js';

// The Cucumber fixture and what it stores. Gherkin cannot express the shared parity
// fixture's tests (no describe blocks, no todo, no skip marker), so the fixture has its own
// cases, and their results are written down here once for the e2e tests and the version
// matrix (docs/naming.md#cucumber).

/**
 * A Cucumber project whose default profile (cucumber.cjs) names @testrun/cucumber as a
 * formatter with the options of FIXTURE_REPORTER_OPTIONS; `-p alone` runs it without.
 * features/ holds every mapping case; slow/ the scenarios the delivery tests wait in.
 */
export const CUCUMBER_PROJECT = path.join(FIXTURES_DIR, 'cucumber', 'project');

export interface CucumberRunOptions {
  args?: readonly string[];
  /** Added to the clean environment; `undefined` values are left out. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Another install's cucumber-js (see frameworkBin); this repo's by default. */
  bin?: string;
  /** The Node binary that runs it; this process's Node by default. */
  nodePath?: string;
  onSpawn?: (child: ChildProcess) => void;
}

/** `cucumber-js` in the Cucumber fixture (or `cwd`), as a real child process. */
export function runCucumber({
  args = [],
  env = {},
  cwd = CUCUMBER_PROJECT,
  bin = frameworkBin('@cucumber/cucumber', undefined, 'cucumber-js'),
  nodePath = process.execPath,
  onSpawn,
}: CucumberRunOptions = {}) {
  return runProcess(nodePath, [bin, ...args], { cwd, env: cleanEnv(env), onSpawn });
}

export const CUCUMBER_NAMES_RESULTS: readonly [string, string][] = [
  ['ünïcödé names > naïve café crème brûlée', 'passed'],
  ['ünïcödé names > 中文测试 and 日本語', 'passed'],
  ['ünïcödé names > price > cost > zero', 'passed'],
  ['ünïcödé names > repeats', 'passed'],
  ['ünïcödé names > repeats (2)', 'failed'],
];

export const CUCUMBER_EACH_RESULTS: readonly ExpectedResult[] = resultsIn('features/each.feature', [
  ['add > add(1, 1) = 2 > Example #1.1', 'passed'],
  ['add > add(2, 3) = 5 > Example #1.2', 'passed'],
  ['add > add(-1, 1) = 0 > Example #2.1', 'passed'],
  ['add > a name without placeholders > Example #1.1', 'passed'],
  ['add > a name without placeholders > Example #1.2', 'passed'],
]);

/** Every scenario of the fixture's features/, run by its default profile (exit code 1). */
export const CUCUMBER_RESULTS: readonly ExpectedResult[] = [
  ...resultsIn('features/cart.feature', [
    ['cart > fails on purpose', 'failed'],
    ['cart > has an undefined step', 'failed'],
    ['cart > takes its time', 'passed'],
    ['cart > totals > sums line items', 'passed'],
    ['cart > totals > applies a percentage discount', 'passed'],
    ['cart > totals > rounds half cents to even', 'skipped'],
    // Pending fails a strict run, Cucumber's default.
    ['cart > totals > supports gift cards', 'failed'],
  ]),
  ...CUCUMBER_EACH_RESULTS,
  ...resultsIn('features/hooks.feature', [
    ['hooks > has a Before hook that fails', 'failed'],
    ['hooks > has an After hook that fails', 'failed'],
    ['hooks > passes on its retry', 'passed'],
  ]),
  ...resultsIn('features/names.feature', [...CUCUMBER_NAMES_RESULTS]),
];

/** What Cucumber's summary says of that run. */
export const CUCUMBER_SUMMARY = '20 scenarios (4 failed, 1 undefined, 1 pending, 1 skipped, 13 passed)';
