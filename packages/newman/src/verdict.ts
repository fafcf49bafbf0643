import type { RunnerVerdict } from '@testrun/core';
import { messageOf } from './record-events.js';

// Newman's own verdict on a run (newman/bin/newman.js exits 1 on it): an error that ended the
// run, or any failure its summary counts (newman/lib/run/summary.js, every event with an
// error). The failures of requests, scripts and assertions are in the requests' results
// (map-events.ts); one at another point of the run (an iteration, before an item) is said
// beside them, so a run Newman failed always holds a failed result that says why.

/** Where a failure was (`at`) when a request's result already holds it. */
const IN_A_RESULT = /^(request|assertion\b|prerequest|test)|-script\b/;

interface NewmanSummary {
  run?: { error?: unknown; failures?: { error?: unknown; at?: unknown }[] };
}

/** The verdict of the run's `done` (its `err` and summary); the error itself is the adapter's run error already. */
export function newmanVerdict(err: unknown, summary: unknown): RunnerVerdict {
  const run = (summary as NewmanSummary | undefined)?.run;
  const failures = Array.isArray(run?.failures) ? run.failures : [];
  const failed = Boolean(err) || Boolean(run?.error) || failures.length > 0;
  const why: string[] = [];
  if (run?.error && run.error !== err) why.push(messageOf(errorText(run.error)));
  for (const { error, at } of failures) {
    const where = typeof at === 'string' ? at : '';
    if (!IN_A_RESULT.test(where)) why.push(`${messageOf(errorText(error))}${where ? ` (at ${where})` : ''}`);
  }
  return { failed, why };
}

/** A serialised error (Newman's summary keeps them so) as its message. */
function errorText(error: unknown): unknown {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : error;
}
