import type { FailureDetails, StoredResult, StoredRun } from '../ledger/store.js';

/** A test's identity across runs: the same project, suite and test name. */
export interface TestIdentity {
  project: string;
  testSuite: string;
  testCase: string;
}

/** How many of a project's newest runs the test page shows. */
export const HISTORY_RUNS = 30;

/** How many of a project's newest runs the flaky rule looks at. */
export const FLAKY_WINDOW = 20;

/** One test in one run; `status` is undefined when the run did not hold the test. */
export interface Outcome {
  run: StoredRun;
  status: string | undefined;
  /** Milliseconds, summed over the test's results in that run. */
  duration: number;
  /** Why it failed in that run (the first failed result's `failure-details`), when the reporter said. */
  details?: FailureDetails;
}

type ResultsOf = (runId: string) => readonly StoredResult[];

/**
 * The test's outcome in each of `runs` (oldest first). A run that holds the test more
 * than once (a repeated name) counts as failed if any of them failed, else as passed if
 * any passed, else takes the first one's status.
 */
export function testHistory(
  runs: readonly StoredRun[],
  resultsOf: ResultsOf,
  { testSuite, testCase }: Omit<TestIdentity, 'project'>,
): Outcome[] {
  return runs.map((run) => {
    const held = resultsOf(run.id).filter((r) => r.testSuite === testSuite && r.testCase === testCase);
    return outcomeIn(run, held);
  });
}

export interface Flips {
  /** Runs in which the test passed. */
  passed: number;
  /** Runs in which the test failed. */
  failed: number;
  /** How often the outcome changed between passed and failed, from one run that held the test to the next. */
  flips: number;
}

/** Passed and failed runs and the flips between them; skipped runs and runs without the test are left out. */
export function countFlips(outcomes: readonly Outcome[]): Flips {
  const decided = outcomes.map((o) => o.status).filter((s) => s === 'passed' || s === 'failed');
  const passed = decided.filter((s) => s === 'passed').length;
  const flips = decided.filter((status, i) => i > 0 && status !== decided[i - 1]).length;
  return { passed, failed: decided.length - passed, flips };
}

export interface FlakyTest extends Flips {
  testSuite: string;
  testCase: string;
  /** The test in each run of the window, oldest first. */
  outcomes: Outcome[];
}

/**
 * The flaky rule: a test is flaky when, within `runs` (a project's last FLAKY_WINDOW runs,
 * oldest first), it passed in at least one run and failed in at least one other.
 * Sorted by flips, most first; then by failed runs.
 */
export function flakyTests(runs: readonly StoredRun[], resultsOf: ResultsOf): FlakyTest[] {
  const byTest = new Map<string, { testSuite: string; testCase: string; held: StoredResult[][] }>();
  runs.forEach((run, index) => {
    for (const result of resultsOf(run.id)) {
      const key = JSON.stringify([result.testSuite, result.testCase]);
      let test = byTest.get(key);
      if (!test) {
        test = { testSuite: result.testSuite, testCase: result.testCase, held: runs.map(() => []) };
        byTest.set(key, test);
      }
      test.held[index]?.push(result);
    }
  });

  const flaky: FlakyTest[] = [];
  for (const { testSuite, testCase, held } of byTest.values()) {
    const outcomes = runs.map((run, index) => outcomeIn(run, held[index] ?? []));
    const flips = countFlips(outcomes);
    if (flips.passed > 0 && flips.failed > 0) flaky.push({ testSuite, testCase, ...flips, outcomes });
  }
  return flaky.sort(
    (a, b) =>
      b.flips - a.flips ||
      b.failed - a.failed ||
      a.testSuite.localeCompare(b.testSuite) ||
      a.testCase.localeCompare(b.testCase),
  );
}

function outcomeIn(run: StoredRun, held: readonly StoredResult[]): Outcome {
  const duration = held.reduce((sum, r) => sum + r.duration, 0);
  const statuses = held.map((r) => r.status);
  const status = statuses.includes('failed')
    ? 'failed'
    : statuses.includes('passed')
      ? 'passed'
      : statuses[0];
  const details = held.find((r) => r.status === 'failed' && r.details)?.details;
  return details ? { run, status, duration, details } : { run, status, duration };
}
