import { expect } from 'vitest';
import { resultsTagged } from './framework-report.js';
import { identities } from './frameworks.js';
import { type ExpectedResult, resultsIn } from './parity-expected.js';
import type { RunOutcome } from './process.js';
import { testrunLines } from './run-framework.js';
import type { TestServer } from './server.js';

// The doubles fixture (fixtures/doubles, its doubles.cjs): what real suites do to the process they
// share with an in-process runner's reporter
// (docs/reliability.md#what-a-test-may-do-to-its-process), one kind per run, named by
// FIXTURE_DOUBLE.

/** Installed in a setup file that runs before the reporter loads, where the runner has one. */
export const DOUBLES_BEFORE_THE_REPORTER = [
  'nock13',
  'nock14',
  'msw',
  'mitm',
  'stubs',
  'fake-timers-first',
] as const;
/**
 * What a WebdriverIO worker can have installed by its mochaOpts.require file: not what takes
 * WebdriverIO's own connection to its browser (`stubs` replaces net.connect and fetch, mitm
 * takes every socket, a fake clock stops its waits), which fails the session before any test.
 * Its tests may have DOUBLES_IN_A_TEST but fake-timers, with which a worker never ends.
 */
export const WDIO_DOUBLES = ['nock13', 'nock14', 'msw', 'http-request'] as const;

/** Installed by a test, and never undone. */
export const DOUBLES_IN_A_TEST = ['fake-timers', 'proxy-env', 'chdir'] as const;

/** What every run of the doubles fixture stores, whichever double it had; one test fails. */
export const DOUBLES_RESULTS = [
  ...resultsIn('a.test.js', [
    ['before the double > passes', 'passed'],
    ['before the double > fails', 'failed'],
    ['the double > is installed and never undone', 'passed'],
    ['the double > passes after it', 'passed'],
  ]),
  ...resultsIn('b.test.js', [
    ['a later file > passes', 'passed'],
    ['a later file > passes again', 'passed'],
  ]),
];

/** What a Cucumber run of the fixture (its features/, the same tests as scenarios) stores. */
export const CUCUMBER_DOUBLES_RESULTS = [
  ...resultsIn('features/a.feature', [
    ['the doubles > before the double > passes', 'passed'],
    ['the doubles > before the double > fails', 'failed'],
    ['the doubles > the double > is installed and never undone', 'passed'],
    ['the doubles > the double > passes after it', 'passed'],
  ]),
  ...resultsIn('features/b.feature', [
    ['a later file > passes', 'passed'],
    ['a later file > passes again', 'passed'],
  ]),
];

/** The environment for a run of the doubles fixture with `double`, tagged with its name, every attempt logged. */
export function doubleEnv(double: string): Record<string, string> {
  return { FIXTURE_DOUBLE: double, TESTRUN_TAGS: double, TESTRUN_DEBUG: '1' };
}

/** What a run of the doubles fixture stores and how its runner exits, where not as under Mocha. */
export interface DoublesExpectation {
  /** DOUBLES_RESULTS unless the runner has its own form of the tests (CUCUMBER_DOUBLES_RESULTS). */
  results?: readonly ExpectedResult[];
  /** The runner's own exit code for this run without the reporter: 1 (a test failed) unless said. */
  code?: number;
}

/**
 * The run tagged `double` stored every result of the fixture once, each request was answered
 * on its first attempt (no retry: no backoff added to the run), nothing was spooled, and the
 * runner exited as it does without the reporter (1 for the failing test, unless `code` says).
 */
export async function expectDeliveredPast(
  server: TestServer,
  double: string,
  outcome: RunOutcome,
  { results = DOUBLES_RESULTS, code = 1 }: DoublesExpectation = {},
): Promise<void> {
  const output = `${outcome.stdout}\n${outcome.stderr}`;
  expect(identities(await resultsTagged(server, double)), output).toEqual(identities(results));
  expect(outcome.code, output).toBe(code);
  const lines = testrunLines(output);
  expect(
    lines.filter((line) => / failed after /.test(line)),
    output,
  ).toEqual([]);
  const summaryLines = lines.filter((line) => /→ run /.test(line));
  const summary = /^testrun: (\d+) results → run (\S+) \(\d+ requests?, [\d.]+ s\)/;
  for (const line of summaryLines) expect(line, output).toMatch(summary);
  const counts = summaryLines.map((line) => Number(summary.exec(line)?.[1]));
  // One reporter, one summary line, every result in it.
  expect(counts, output).toEqual([results.length]);
  expect(output).not.toContain('spooled');
  // Node's own client classes come from modules Node documents as deprecated aliases: silently.
  expect(output).not.toContain('DeprecationWarning');
}
