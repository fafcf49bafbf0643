import type { RunWithCounts } from '../ledger/store.js';

/**
 * How long a run took, and what that figure is. The sum of its tests' durations is not the
 * run's length: runners run files in parallel and spend time outside tests (a 5.4 s Vitest
 * run whose tests add up to 191 ms). Reporters create the run as the runner starts, so the
 * wall clock from creation is the run's length once it ended; before that, creation to the
 * last results received is what is known of it.
 */
export type RunDuration =
  /** Created to ended (`PATCH /api/v1/runs/{id}`). */
  | { kind: 'wall'; ms: number; tests: number }
  /** Not ended: created to the last results received. */
  | { kind: 'wall-to-last-results'; ms: number; tests: number }
  /** Nothing received and not ended: only the (empty) sum of its tests is known. */
  | { kind: 'tests'; ms: number; tests: number };

export function runDuration(
  run: Pick<RunWithCounts, 'createdAt' | 'end' | 'lastReceivedAt' | 'total' | 'totalDuration'>,
): RunDuration {
  const tests = run.totalDuration;
  const created = Date.parse(run.createdAt);
  const ended = run.end ? Date.parse(run.end.endedAt) : Number.NaN;
  if (Number.isFinite(created) && Number.isFinite(ended) && ended >= created) {
    return { kind: 'wall', ms: ended - created, tests };
  }
  const last = Date.parse(run.lastReceivedAt);
  if (!run.end && run.total > 0 && Number.isFinite(created) && Number.isFinite(last) && last >= created) {
    return { kind: 'wall-to-last-results', ms: last - created, tests };
  }
  return { kind: 'tests', ms: tests, tests };
}
