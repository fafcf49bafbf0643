import type { RunnerVerdict } from '../types.js';

// A run is never greener than the runner's own verdict
// (docs/design/run-end.md#never-greener-than-the-runner): a run the runner failed ends `failed`,
// and holds a failed result that says why. What an adapter knows of why goes in
// `RunnerVerdict.why`; this module words what every adapter says alike.

/** Whether the verdict fails the run: the runner said so, or the adapter said why. */
export function verdictFails(verdict: RunnerVerdict): boolean {
  return verdict.failed === true || (verdict.why?.length ?? 0) > 0;
}

/**
 * Why a run whose runner counted more tests than it reported failed, for `RunnerVerdict.why`;
 * undefined when every counted test was reported. The first line, the `(run)` result's name,
 * stays the same from run to run (the runner's error when it gave one, `cause`); the counts
 * follow on the next line. `runner` is the runner's name as its users write it (`TestCafe`).
 */
export function testsNotReported(
  runner: string,
  counts: { counted: number; reported: number },
  cause?: string,
): string | undefined {
  const { counted, reported } = counts;
  if (!(counted > reported)) return undefined;
  const first = cause?.trim() || `${runner} ended the run before it reported every test it counted`;
  const missing = counted - reported;
  return `${first}\n${runner} counted ${counted} ${counted === 1 ? 'test' : 'tests'} and reported ${reported}: ${missing} never ended`;
}

/** What a run the runner failed says when neither a result nor the adapter says why. */
export function failedWithoutReason(runner: string): string {
  return `${runner} failed the run outside its tests and gave no error for it; its output says why`;
}
