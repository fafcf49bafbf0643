import type { SqlExecutor, SqlValue } from '../database/sql-database.js';
import { namedTest } from './filters.js';
import type { Quarantine } from './quarantines.js';
import { RUN_COLUMNS, type RunRow } from './rows.js';

// How each quarantined test of a project is doing, for its quarantine page
// (docs/design/quarantine.md): its last failure, how many builds its quarantine kept green,
// and how many runs in a row it passed on the project's default branch, which says when to
// lift it. Bounded: the project's last HEALTH_RUNS runs, one query for them and one per test (MEASURED_TESTS at most),
// and one for the builds kept green, read from the partial index of marked results.

/** The project's newest runs a test's last failure and passing streak are read from. */
export const HEALTH_RUNS = 100;
/** Quarantined tests measured on one page, at most; the rest are listed without. */
export const MEASURED_TESTS = 200;
/** Runs in a row it passed on the default branch after which the page suggests lifting it. */
export const LIFT_AFTER_PASSES = 10;

export interface QuarantineHealth {
  /** The newest run of the window in which it failed; undefined when none did. */
  lastFailure?: { runId: string; at: string; message: string | undefined; quarantined: boolean } | undefined;
  /** Builds its quarantine kept green: completed runs that hold its failure, marked quarantined. */
  keptGreen: number;
  /** Runs in a row, newest first, on the default branch, that held it and in which it passed. */
  passingStreak: number;
  /** Whether it was measured at all (MEASURED_TESTS). */
  measured: boolean;
}

export interface ProjectHealth {
  /** The branch the streak is counted on: main, else master, else the most frequent; undefined when runs name none. */
  defaultBranch: string | undefined;
  /** Runs of the window. */
  runs: number;
  byKey: Map<string, QuarantineHealth>;
}

export async function quarantineHealth(
  db: SqlExecutor,
  project: string,
  quarantines: readonly Quarantine[],
): Promise<ProjectHealth> {
  const rows = await db.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM runs WHERE project = $1 ORDER BY seq DESC LIMIT $2`,
    [project, HEALTH_RUNS],
  );
  const runs = rows.map((row) => ({
    seq: Number(row.seq),
    id: row.id,
    createdAt: row.created_at,
    branch: branchOf(JSON.parse(row.tags) as string[]),
  }));
  const defaultBranch = defaultBranchOf(runs.map((run) => run.branch));
  const kept = await keptGreen(db, project);
  const byKey = new Map<string, QuarantineHealth>();
  for (const [index, quarantine] of quarantines.entries()) {
    const keptGreen = kept.get(JSON.stringify([quarantine.testSuite, quarantine.testCase])) ?? 0;
    if (index >= MEASURED_TESTS || runs.length === 0) {
      byKey.set(quarantine.key, { keptGreen, passingStreak: 0, measured: index < MEASURED_TESTS });
      continue;
    }
    const outcomes = await outcomesOf(db, runs, quarantine);
    let lastFailure: QuarantineHealth['lastFailure'];
    let passingStreak = 0;
    let streakOver = false;
    for (const run of runs) {
      const outcome = outcomes.get(run.seq);
      if (!outcome) continue;
      if (outcome.failed && !lastFailure) {
        lastFailure = {
          runId: run.id,
          at: run.createdAt,
          message: outcome.message,
          quarantined: outcome.quarantined,
        };
      }
      if (!streakOver && run.branch === defaultBranch) {
        if (outcome.failed) streakOver = true;
        else if (outcome.passed) passingStreak += 1;
      }
    }
    byKey.set(quarantine.key, { lastFailure, keptGreen, passingStreak, measured: true });
  }
  return { defaultBranch, runs: runs.length, byKey };
}

interface RunOutcome {
  failed: boolean;
  passed: boolean;
  message: string | undefined;
  quarantined: boolean;
}

/** The test's outcome in each run of the window that held it: failed if any of its results failed. */
async function outcomesOf(
  db: SqlExecutor,
  runs: readonly { seq: number }[],
  test: { testSuite: string; testCase: string },
): Promise<Map<number, RunOutcome>> {
  const params: SqlValue[] = runs.map((run) => run.seq);
  const inRuns = params.map((_, index) => `$${index + 1}`).join(', ');
  params.push(test.testSuite, test.testCase);
  const rows = await db.query<{
    run_seq: number | string;
    status: string;
    details: string | null;
    quarantined: number | string | null;
  }>(
    `SELECT run_seq, status, details, quarantined FROM results WHERE run_seq IN (${inRuns}) AND ${namedTest(`$${params.length - 1}`, `$${params.length}`)}`,
    params,
  );
  const outcomes = new Map<number, RunOutcome>();
  for (const row of rows) {
    const seq = Number(row.run_seq);
    const outcome = outcomes.get(seq) ?? {
      failed: false,
      passed: false,
      message: undefined,
      quarantined: false,
    };
    if (row.status === 'failed') {
      if (!outcome.failed) outcome.message = messageOf(row.details);
      outcome.failed = true;
      outcome.quarantined ||= Number(row.quarantined) === 1;
    } else if (row.status === 'passed') outcome.passed = true;
    outcomes.set(seq, outcome);
  }
  return outcomes;
}

/** Completed runs of the project by the quarantined test whose marked failure they hold. */
async function keptGreen(db: SqlExecutor, project: string): Promise<Map<string, number>> {
  const rows = await db.query<{ test_suite: string; test_case: string; n: number | string }>(
    `SELECT results.test_suite, results.test_case, count(DISTINCT results.run_seq) AS n
     FROM results JOIN runs ON runs.seq = results.run_seq
     WHERE results.quarantined = 1 AND runs.project = $1 AND runs.end_status = 'completed'
     GROUP BY results.test_suite, results.test_case`,
    [project],
  );
  return new Map(rows.map((row) => [JSON.stringify([row.test_suite, row.test_case]), Number(row.n)]));
}

function branchOf(tags: readonly string[]): string | undefined {
  return tags.find((tag) => tag.startsWith('branch:'))?.slice('branch:'.length);
}

/** `main`, else `master`, where a run names it; else the branch most runs name; undefined when none names one. */
export function defaultBranchOf(branches: readonly (string | undefined)[]): string | undefined {
  const named = branches.filter((branch): branch is string => branch !== undefined);
  for (const usual of ['main', 'master']) if (named.includes(usual)) return usual;
  const counts = new Map<string, number>();
  for (const branch of named) counts.set(branch, (counts.get(branch) ?? 0) + 1);
  let best: string | undefined;
  for (const [branch, count] of counts) if (best === undefined || count > counts.get(best)!) best = branch;
  return best;
}

function messageOf(details: string | null): string | undefined {
  if (details === null) return undefined;
  try {
    const message = (JSON.parse(details) as { message?: unknown }).message;
    if (typeof message !== 'string') return undefined;
    return message
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean);
  } catch {
    return undefined;
  }
}
