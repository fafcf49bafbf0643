import type { MochaRunnable, MochaSuite } from './mocha-types.js';

/**
 * The event a worker adds for the tests a failed hook kept from running (worker-reporter.cts);
 * the main process's reporter listens for it. Here, as the worker require()s this module.
 */
export const PREVENTED_EVENT = 'testrun:prevented';

/** Whether Mocha would run a test (its --grep); every test when unknown. */
export type WillRun = (test: MochaRunnable) => boolean;

/**
 * The tests a failed hook kept from running, with the test it ran for. Mocha stops a suite
 * at a hook that throws: `before all` skips every test under it, `before each` and `after
 * each` the rest of the suite the hook belongs to and the suites in it; none of those tests
 * gets an event. They are the suite's tests that have not run (no `state`) when the hook
 * fails, so this is called then. A failed `after each` also fails the test it ran after,
 * as Jest and Vitest fail a test whose afterEach throws. An `after all` hook prevents nothing.
 *
 * Plain loops and property reads only: this runs inside the test process, while a test
 * may have replaced Array.prototype methods.
 */
export function preventedBy(hook: MochaRunnable, willRun: WillRun = () => true): MochaRunnable[] {
  const prevented: MochaRunnable[] = [];
  const title = hook.title ?? '';
  if (title.startsWith('"after all" hook')) return prevented;
  const current = hook.ctx?.currentTest;
  if (current && title.startsWith('"after each" hook')) prevented[prevented.length] = current;
  if (hook.parent) collectNotRun(hook.parent, willRun, prevented);
  return prevented;
}

function collectNotRun(suite: MochaSuite, willRun: WillRun, into: MochaRunnable[]): void {
  const tests = suite.tests ?? [];
  for (let i = 0; i < tests.length; i++) {
    const test = tests[i]!;
    if (test.state === undefined && willRun(test)) into[into.length] = test;
  }
  const suites = suite.suites ?? [];
  for (let i = 0; i < suites.length; i++) collectNotRun(suites[i]!, willRun, into);
}

/** Mocha's --grep, as the runner holds it (`_grep`, `_invert`, unchanged since Mocha 4). */
export function grepOf(runner: unknown): WillRun {
  const { _grep: grep, _invert: invert } = runner as { _grep?: unknown; _invert?: unknown };
  if (!(grep instanceof RegExp)) return () => true;
  return (test) => {
    const fullTitle = (test as { fullTitle?: () => string }).fullTitle?.();
    return typeof fullTitle !== 'string' || grep.test(fullTitle) !== Boolean(invert);
  };
}
