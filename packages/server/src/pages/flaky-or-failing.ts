import type { StoredResult, StoredRun } from '../ledger/store.js';
import { addResult, countFlips, type Flips, type Outcome } from './history.js';

// Which tests of a project are flaky and which newly fail (docs/design/flaky.md).
// Pure: it takes a project's runs and their results as plain data, whatever store they
// come from, and holds per test one outcome per run, never the results themselves.

/** How many of a project's newest runs the flaky page looks at. */
export const FLAKY_WINDOW = 20;

// The tags core adds in CI (core's ci-tags.ts): `commit:<sha>` and `branch:<name>`.

/**
 * Which rule a project's lists were made by.
 * - `same-commit`: some run carried a commit tag; a test is flaky when one commit both passed
 *   and failed it, and newly failing when it failed on every commit since one that passed it.
 * - `passed-and-failed`: no run carried one; a test is flaky when it passed in one run and
 *   failed in another (which a regression does too), and nothing is called newly failing.
 * Under both, a test is also flaky when it passed on a retry within one run, where the runner
 * said so (a passed result's `details.attempts` of 2 or more): that needs no commit.
 */
export type FlakyRule = 'same-commit' | 'passed-and-failed';

/** One commit on which a test both passed and failed: the first run of each outcome. */
export interface BothOutcomes {
  commit: string;
  passedIn: StoredRun;
  failedIn: StoredRun;
}

/** A run in which the test passed on a retry: on attempt `attempts`, as its runner said. */
export interface RetriedPass {
  run: StoredRun;
  attempts: number;
}

/** Flips, passed and failed runs: under `same-commit`, of the runs that carry a commit only. */
export interface FlakyTest extends Flips {
  testSuite: string;
  testCase: string;
  /** The test in each run of the window, oldest first. */
  outcomes: Outcome[];
  /** Under `same-commit`: the commits that both passed and failed it, oldest first; else empty. */
  bothOutcomes: BothOutcomes[];
  /** The runs of the window (with a commit or not) in which it passed on a retry, oldest first. */
  retriedPasses: RetriedPass[];
}

export interface NewFailure {
  testSuite: string;
  testCase: string;
  /** The branch of the streak (its runs' `branch:` tag), undefined for runs without one. */
  branch: string | undefined;
  /** The first commit of the failing streak. */
  commit: string;
  /** The first run on that commit in which the test failed. */
  firstFailingRun: StoredRun;
  /**
   * The last run in which the test passed on the branch's commit before the streak; when the
   * branch has none in the window (a new branch), the last run of any branch before the streak.
   */
  lastPassingRun: StoredRun;
  /** Commits in the streak, and runs in which it failed on them. */
  failingCommits: number;
  failedRuns: number;
  /** The test in each run of the window, oldest first. */
  outcomes: Outcome[];
}

export interface FlakyOrFailing {
  rule: FlakyRule;
  /** Runs looked at (the project's last FLAKY_WINDOW, or fewer). */
  runs: number;
  /** Runs the rule judged: under `same-commit` those with a commit tag (the others are left out), else all. */
  judgedRuns: number;
  /** Most commits with both outcomes and runs passed on a retry first, then most flips. */
  flaky: FlakyTest[];
  /** Newest streak first; always empty under `passed-and-failed`. */
  newlyFailing: NewFailure[];
}

/** The commit a run was built from, as core tagged it in CI; undefined outside CI. */
export function commitOf(run: StoredRun): string | undefined {
  return tagValue(run, 'commit');
}

/** The value of the run's first `name:value` tag with a value. */
function tagValue(run: StoredRun, name: string): string | undefined {
  const prefix = `${name}:`;
  const tag = run.tags.find((t) => t.startsWith(prefix) && t.length > prefix.length);
  return tag?.slice(prefix.length);
}

/**
 * A project's flaky and newly failing tests. `runs`: the project's runs to judge, oldest
 * first (its last FLAKY_WINDOW); `results`: their results in any order (a result of a run
 * not in `runs` is ignored). Results are read once and not kept, so a store may stream them.
 */
export function flakyOrFailing(runs: readonly StoredRun[], results: Iterable<StoredResult>): FlakyOrFailing {
  const indexOf = new Map(runs.map((run, index) => [run.id, index]));
  // Per test, its outcome in each run that held it, at the run's index: memory grows with
  // tests × runs in the window, not with results. Only a test with a failed outcome can be on
  // either list, or a test that passed on a retry, so a store may send only the results of
  // tests that failed at least once in the window or passed there after more than one attempt
  // (one more condition in its query); the verdicts are the same.
  // Keyed by suite, then name: no key string built per result.
  const bySuite = new Map<string, Map<string, TestInWindow>>();
  for (const result of results) {
    const index = indexOf.get(result.runId);
    if (index === undefined) continue;
    let byName = bySuite.get(result.testSuite);
    if (!byName) {
      byName = new Map();
      bySuite.set(result.testSuite, byName);
    }
    let test = byName.get(result.testCase);
    if (!test) {
      // Holey but allocated once: growing an empty array index by index costs more.
      test = { testSuite: result.testSuite, testCase: result.testCase, held: new Array(runs.length) };
      byName.set(result.testCase, test);
    }
    test.held[index] = addResult(
      test.held[index] ?? { run: runs[index]!, status: undefined, duration: 0 },
      result,
    );
  }
  /** The test in every run of the window, for the page's strip; only for tests that are listed. */
  const everyRun = (held: readonly Outcome[]): Outcome[] =>
    runs.map((run, index) => held[index] ?? { run, status: undefined, duration: 0 });

  // Read once per run, not once per test and run.
  const commits = new Map(runs.map((run) => [run, commitOf(run)]));
  const branches = new Map(runs.map((run) => [run, tagValue(run, 'branch')]));
  const tagged = [...commits.values()].filter((commit) => commit !== undefined).length;
  const rule: FlakyRule = tagged > 0 ? 'same-commit' : 'passed-and-failed';
  const flaky: FlakyTest[] = [];
  const newlyFailing: NewFailure[] = [];
  for (const { testSuite, testCase, held: sparse } of [...bySuite.values()].flatMap((byName) => [
    ...byName.values(),
  ])) {
    // Oldest first, holes left out; by commit, only the runs that carry one count.
    const held = sparse.filter(
      (outcome) => rule === 'passed-and-failed' || commits.get(outcome.run) !== undefined,
    );
    const flips = countFlips(held);
    // The runner's own word, within one run: no commit needed, so every run of the window counts.
    const retriedPasses = sparse.flatMap((outcome) =>
      outcome.passedOnAttempt ? [{ run: outcome.run, attempts: outcome.passedOnAttempt }] : [],
    );
    if (rule === 'passed-and-failed') {
      if ((flips.passed > 0 && flips.failed > 0) || retriedPasses.length > 0)
        flaky.push({
          testSuite,
          testCase,
          ...flips,
          outcomes: everyRun(sparse),
          bothOutcomes: [],
          retriedPasses,
        });
      continue;
    }
    const onCommits = byCommit(held, commits);
    const bothOutcomes = onCommits.flatMap(({ commit, passedIn, failedIn }) =>
      passedIn && failedIn ? [{ commit, passedIn, failedIn }] : [],
    );
    if (bothOutcomes.length > 0 || retriedPasses.length > 0)
      flaky.push({ testSuite, testCase, ...flips, outcomes: everyRun(sparse), bothOutcomes, retriedPasses });
    // A streak is a line of commits: one branch's. Another branch (a pull request that broke
    // the test, main still passing it) neither starts nor ends it.
    for (const [branch, onBranch] of byBranch(held, branches)) {
      const streak = failingStreak(byCommit(onBranch, commits), held);
      if (streak) newlyFailing.push({ testSuite, testCase, branch, ...streak, outcomes: everyRun(sparse) });
    }
  }

  const byName = (a: { testSuite: string; testCase: string }, b: { testSuite: string; testCase: string }) =>
    a.testSuite.localeCompare(b.testSuite) || a.testCase.localeCompare(b.testCase);
  flaky.sort(
    (a, b) =>
      b.bothOutcomes.length + b.retriedPasses.length - (a.bothOutcomes.length + a.retriedPasses.length) ||
      b.flips - a.flips ||
      b.failed - a.failed ||
      byName(a, b),
  );
  newlyFailing.sort(
    (a, b) =>
      (indexOf.get(b.firstFailingRun.id) ?? 0) - (indexOf.get(a.firstFailingRun.id) ?? 0) ||
      byName(a, b) ||
      (a.branch ?? '').localeCompare(b.branch ?? ''),
  );
  return { rule, runs: runs.length, judgedRuns: tagged > 0 ? tagged : runs.length, flaky, newlyFailing };
}

interface TestInWindow {
  testSuite: string;
  testCase: string;
  held: Outcome[];
}

/** What one commit did to a test over its runs in the window. */
interface OnCommit {
  commit: string;
  /** First and last run that passed it; first run that failed it. */
  passedIn?: StoredRun;
  lastPassedIn?: StoredRun;
  failedIn?: StoredRun;
  failedRuns: number;
}

/**
 * The test's outcomes grouped by commit, commits in the order their first run arrived (a
 * rerun of an older commit does not make it newer). Runs without a commit tag, and runs
 * where the test was skipped or absent, are left out.
 */
function byCommit(
  outcomes: readonly Outcome[],
  commitOfRun: ReadonlyMap<StoredRun, string | undefined>,
): OnCommit[] {
  const commits = new Map<string, OnCommit>();
  for (const { run, status } of outcomes) {
    const commit = commitOfRun.get(run);
    if (commit === undefined) continue;
    let on = commits.get(commit);
    if (!on) {
      on = { commit, failedRuns: 0 };
      commits.set(commit, on);
    }
    if (status === 'passed') {
      on.passedIn ??= run;
      on.lastPassedIn = run;
    } else if (status === 'failed') {
      on.failedIn ??= run;
      on.failedRuns += 1;
    }
  }
  return [...commits.values()].filter((on) => on.passedIn || on.failedIn);
}

/** The outcomes of each branch, in the order given; runs without a branch tag are one group. */
function byBranch(
  outcomes: readonly Outcome[],
  branchOfRun: ReadonlyMap<StoredRun, string | undefined>,
): Map<string | undefined, Outcome[]> {
  const groups = new Map<string | undefined, Outcome[]>();
  for (const outcome of outcomes) {
    const branch = branchOfRun.get(outcome.run);
    const group = groups.get(branch);
    if (group) group.push(outcome);
    else groups.set(branch, [outcome]);
  }
  return groups;
}

/**
 * A new failure on one branch: the test failed, and only failed, on every commit of the
 * branch from some commit to the newest that ran it, and it had passed before: on the
 * branch's commit before that, or, when the streak is all the branch has in the window (a
 * new branch, whose base is not known here), in any earlier run of `everyBranch`. A test
 * that failed in every run of the window before the streak too: when it began is not known.
 */
function failingStreak(
  commits: readonly OnCommit[],
  everyBranch: readonly Outcome[],
): Omit<NewFailure, 'testSuite' | 'testCase' | 'branch' | 'outcomes'> | undefined {
  let start = commits.length;
  while (start > 0 && commits[start - 1]!.failedIn && !commits[start - 1]!.passedIn) start -= 1;
  const first = commits[start];
  if (!first?.failedIn) return undefined;
  const firstFailed = everyBranch.findIndex((outcome) => outcome.run === first.failedIn);
  const lastPassingRun =
    commits[start - 1]?.lastPassedIn ??
    everyBranch.slice(0, firstFailed).findLast((outcome) => outcome.status === 'passed')?.run;
  if (!lastPassingRun) return undefined;
  const streak = commits.slice(start);
  return {
    commit: first.commit,
    firstFailingRun: first.failedIn,
    lastPassingRun,
    failingCommits: streak.length,
    failedRuns: streak.reduce((sum, on) => sum + on.failedRuns, 0),
  };
}
