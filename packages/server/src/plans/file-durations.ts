import type { SqlExecutor } from '../database/sql-database.js';
import { median } from './place-files.js';

// Each file's recent duration, read from the stored results (docs/design/shard-plans.md#the-rule): a file's
// time in a run is the sum of its results' durations there (under every project label and
// the typecheck variant, which run beside it); its weight is the median of its last
// SAMPLES_PER_FILE such times, taken from the runs of the branch being built first, then of
// the default branch, then of any branch of the project. Only runs that ended (completed,
// or silent long enough to be abandoned) count: a run still under way holds half-run files.
// Bounded whatever the store holds: at most RUNS_PER_LEVEL runs a level, found through
// indexes newest first, and their results read only up to RESULTS_READ_AT_MOST.

export const RUNS_PER_LEVEL = 20;
export const SAMPLES_PER_FILE = 5;
export const RESULTS_READ_AT_MOST = 250_000;

export type DurationLevel = 'branch' | 'default-branch' | 'project';

export interface DurationQuery {
  project: string;
  branch?: string | undefined;
  defaultBranch?: string | undefined;
  /** A run never completed that received nothing for this long has ended (abandoned). */
  abandonedAfterMs: number;
  now: number;
}

export interface FileDuration {
  /** Milliseconds: the median of the file's recent times. */
  weight: number;
  /** The level of the newest run it was seen in. */
  from: DurationLevel;
}

interface CandidateRun {
  seq: number;
  total: number;
  level: DurationLevel;
}

/** Each of `files` seen in the project's recent ended runs, with its weight; files never seen are left out. */
export async function fileDurations(
  db: SqlExecutor,
  query: DurationQuery,
  files: ReadonlySet<string>,
): Promise<Map<string, FileDuration>> {
  const runs = await candidateRuns(db, query);
  const timesByRun = await fileTimes(
    db,
    runs.map((run) => run.seq),
  );
  const durations = new Map<string, FileDuration>();
  for (const file of files) {
    const samples: number[] = [];
    let from: DurationLevel | undefined;
    for (const run of runs) {
      const time = timesByRun.get(run.seq)?.get(file);
      if (time === undefined) continue;
      from ??= run.level;
      samples.push(time);
      if (samples.length === SAMPLES_PER_FILE) break;
    }
    if (from !== undefined) durations.set(file, { weight: median(samples)!, from });
  }
  return durations;
}

/**
 * The runs to read, in the order their times count: the branch's newest first, then the
 * default branch's, then the project's; each once, and within the results budget (the first
 * run always, however large).
 */
async function candidateRuns(db: SqlExecutor, query: DurationQuery): Promise<CandidateRun[]> {
  const cutoff = new Date(query.now - query.abandonedAfterMs).toISOString();
  const levels: [DurationLevel, Promise<{ seq: number | string; total: number | string }[]>][] = [];
  const ofBranch = (branch: string) =>
    db.query<{ seq: number | string; total: number | string }>(
      `SELECT r.seq, r.total FROM run_tags t JOIN runs r ON r.seq = t.run_seq
       WHERE t.tag = $1 AND r.project = $2 AND r.total > 0 AND (r.end_status IS NOT NULL OR r.last_received_at <= $3)
       ORDER BY t.run_seq DESC LIMIT ${RUNS_PER_LEVEL}`,
      [`branch:${branch}`, query.project, cutoff],
    );
  if (query.branch) levels.push(['branch', ofBranch(query.branch)]);
  if (query.defaultBranch && query.defaultBranch !== query.branch) {
    levels.push(['default-branch', ofBranch(query.defaultBranch)]);
  }
  levels.push([
    'project',
    db.query(
      `SELECT seq, total FROM runs
       WHERE project = $1 AND total > 0 AND (end_status IS NOT NULL OR last_received_at <= $2)
       ORDER BY seq DESC LIMIT ${RUNS_PER_LEVEL}`,
      [query.project, cutoff],
    ),
  ]);
  const runs: CandidateRun[] = [];
  const seen = new Set<number>();
  let budget = RESULTS_READ_AT_MOST;
  for (const [level, rows] of levels) {
    for (const row of await rows) {
      const seq = Number(row.seq);
      const total = Number(row.total);
      if (seen.has(seq)) continue;
      if (runs.length > 0 && total > budget) return runs;
      seen.add(seq);
      budget -= total;
      runs.push({ seq, total, level });
    }
  }
  return runs;
}

/** Each run's time per file: its results' durations summed by the file they name. */
async function fileTimes(
  db: SqlExecutor,
  seqs: readonly number[],
): Promise<Map<number, Map<string, number>>> {
  const times = new Map<number, Map<string, number>>();
  if (seqs.length === 0) return times;
  const rows = await db.query<{ run_seq: number | string; test_suite: string; duration: number | string }>(
    `SELECT run_seq, test_suite, sum(duration) AS duration FROM results
     WHERE run_seq IN (${seqs.map((_, i) => `$${i + 1}`).join(', ')})
     GROUP BY run_seq, test_suite`,
    seqs,
  );
  for (const row of rows) {
    const seq = Number(row.run_seq);
    let byFile = times.get(seq);
    if (!byFile) {
      byFile = new Map();
      times.set(seq, byFile);
    }
    const file = fileOf(row.test_suite);
    byFile.set(file, (byFile.get(file) ?? 0) + Number(row.duration));
  }
  return times;
}

/**
 * The file a testSuite names, as a plan names it: without the project label the reporters put
 * before it (`[node] src/a.test.ts`) and the typecheck variant after it (docs/naming.md).
 */
export function fileOf(testSuite: string): string {
  const labelled = /^\[[^\]\n]*\] (.+)$/s.exec(testSuite);
  const path = labelled ? labelled[1]! : testSuite;
  return path.endsWith(' (typecheck)') ? path.slice(0, -' (typecheck)'.length) : path;
}
