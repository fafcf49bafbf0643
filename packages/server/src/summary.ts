import type { StoredResult, StoredRun } from './model.js';
import type { Store } from './store.js';

/** A run with what its results add up to. */
export interface RunSummary extends StoredRun {
  /** Results by status: every allowed status (0 when none), plus any other stored status. */
  counts: Record<string, number>;
  total: number;
  totalDuration: number;
}

export function summarizeRun(
  run: StoredRun,
  results: readonly StoredResult[],
  statuses: readonly string[],
): RunSummary {
  const counts: Record<string, number> = Object.fromEntries(statuses.map((status) => [status, 0]));
  let totalDuration = 0;
  for (const result of results) {
    counts[result.status] = (counts[result.status] ?? 0) + 1;
    totalDuration += result.duration;
  }
  return { ...run, counts, total: results.length, totalDuration };
}

/** Every run, newest first, summarized. */
export function summarizeRuns(store: Store, statuses: readonly string[]): RunSummary[] {
  return store
    .runs()
    .reverse()
    .map((run) => summarizeRun(run, store.results(run.id), statuses));
}
