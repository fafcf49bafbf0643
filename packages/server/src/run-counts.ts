import type { StoredResult, StoredRun } from './model.js';
import type { Store } from './store.js';

/** A run with what its results add up to. */
export interface RunWithCounts extends StoredRun {
  /** Results by status: every allowed status (0 when none), plus any other stored status. */
  counts: Record<string, number>;
  total: number;
  totalDuration: number;
}

export function countRun(
  run: StoredRun,
  results: readonly StoredResult[],
  statuses: readonly string[],
): RunWithCounts {
  const counts: Record<string, number> = Object.fromEntries(statuses.map((status) => [status, 0]));
  let totalDuration = 0;
  for (const result of results) {
    counts[result.status] = (counts[result.status] ?? 0) + 1;
    totalDuration += result.duration;
  }
  return { ...run, counts, total: results.length, totalDuration };
}

/** Every run, newest first, summarized. */
export function countRuns(store: Store, statuses: readonly string[]): RunWithCounts[] {
  return store
    .runs()
    .reverse()
    .map((run) => countRun(run, store.results(run.id), statuses));
}
