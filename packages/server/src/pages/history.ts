import type { FailureDetails, StoredResult, StoredRun } from '../ledger/store.js';

/** A test's identity across runs: the same project, suite and test name. */
export interface TestIdentity {
  project: string;
  testSuite: string;
  testCase: string;
}

/** How many of a project's newest runs the test page shows. */
export const HISTORY_RUNS = 30;

/** One test in one run; `status` is undefined when the run did not hold the test. */
export interface Outcome {
  run: StoredRun;
  status: string | undefined;
  /** Milliseconds, summed over the test's results in that run. */
  duration: number;
  /** Why it failed in that run (the first failed result's `failure-details`), when the reporter said. */
  details?: FailureDetails;
  /**
   * The attempt it passed on in that run, when the runner retried it and said so (a passed
   * result's `details.attempts`, 2 or more; the most of them): it passed on a retry.
   */
  passedOnAttempt?: number;
  /** A failure in that run was marked quarantined (docs/design/quarantine.md): it did not fail the build. */
  quarantinedIn?: boolean;
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

function outcomeIn(run: StoredRun, held: readonly StoredResult[]): Outcome {
  return held.reduce(addResult, { run, status: undefined, duration: 0 });
}

/**
 * The outcome once one more of the run's results for the test is counted: failed if any
 * failed, else passed if any passed, else the first one's status; durations add up. One
 * result at a time, so a caller can fold results as they stream in without holding them.
 */
export function addResult(
  outcome: Outcome,
  result: Pick<StoredResult, 'status' | 'duration' | 'details' | 'quarantined'>,
): Outcome {
  const status =
    outcome.status === 'failed' || result.status === 'failed'
      ? 'failed'
      : outcome.status === 'passed' || result.status === 'passed'
        ? 'passed'
        : (outcome.status ?? result.status);
  const counted: Outcome = { run: outcome.run, status, duration: outcome.duration + result.duration };
  const details = outcome.details ?? (result.status === 'failed' ? result.details : undefined);
  if (details) counted.details = details;
  const attempts = result.status === 'passed' ? retriedAttempts(result.details) : undefined;
  const passedOnAttempt = Math.max(outcome.passedOnAttempt ?? 0, attempts ?? 0);
  if (passedOnAttempt > 1) counted.passedOnAttempt = passedOnAttempt;
  if (outcome.quarantinedIn || (result.status === 'failed' && result.quarantined === true)) {
    counted.quarantinedIn = true;
  }
  return counted;
}

/** A passed result's attempts when it needed more than one; undefined otherwise. */
function retriedAttempts(details: FailureDetails | undefined): number | undefined {
  const attempts = details?.attempts;
  return typeof attempts === 'number' && Number.isInteger(attempts) && attempts > 1 ? attempts : undefined;
}
