import type { RunEndStatus, RunWithCounts } from './store.js';

/**
 * What a run's page says about it: `running` until it is completed (`PATCH
 * /api/v1/runs/{id}`) as completed, failed or interrupted; `abandoned` when it never was and
 * nothing arrived for `abandonedAfterMs` (a killed job, a reporter without `completeRun`).
 */
export type RunState = 'running' | RunEndStatus | 'abandoned';

export const RUN_STATES: readonly RunState[] = ['running', 'completed', 'failed', 'interrupted', 'abandoned'];

/** Default of `abandonedAfterMs`: one hour. */
export const DEFAULT_ABANDONED_AFTER_MS = 60 * 60_000;

export function runState(
  run: Pick<RunWithCounts, 'end' | 'lastReceivedAt'>,
  now: number,
  abandonedAfterMs: number,
): RunState {
  if (run.end) return run.end.status;
  return now - Date.parse(run.lastReceivedAt) >= abandonedAfterMs ? 'abandoned' : 'running';
}

/**
 * The same rule as `runState`, as an SQL condition on the `runs` table, for listing runs by
 * state. Times are ISO 8601 in UTC, as the server writes them, so they compare as text.
 * `firstParam` is the number of the first placeholder it may use.
 */
export function stateCondition(
  state: RunState,
  now: number,
  abandonedAfterMs: number,
  firstParam: number,
): { sql: string; params: string[] } {
  if (state === 'running' || state === 'abandoned') {
    const cutoff = new Date(now - abandonedAfterMs).toISOString();
    const compare = state === 'running' ? '>' : '<=';
    return { sql: `(end_status IS NULL AND last_received_at ${compare} $${firstParam})`, params: [cutoff] };
  }
  return { sql: `end_status = $${firstParam}`, params: [state] };
}
