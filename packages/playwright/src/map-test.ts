import type { Suite, TestCase, TestResult } from '@playwright/test/reporter';
import type { CanonicalStatus, RawFailure, RawTest } from '@testrun/core';

/** One test as core takes it, with whether Playwright called it flaky; core names it (see "Mapping" in the README). */
export interface MappedTest {
  test: RawTest;
  flaky: boolean;
}

/**
 * A test that finished at least one attempt, mapped from its final outcome and its last
 * finished attempt; undefined for a test that never finished one (the run was interrupted
 * or stopped by --max-failures before it ran): it did not run, so it is no result.
 */
export function mapTest(test: TestCase): MappedTest | undefined {
  const last = lastFinishedAttempt(test);
  if (!last) return undefined;
  const outcome = test.outcome();
  const status = statusOf(outcome, last, test);
  return {
    test: {
      titles: [...describeTitles(test), test.title],
      status,
      // The final attempt's time: what the test took when it got its verdict.
      duration: last.duration,
      failure: status === 'failed' ? failureOf(last) : undefined,
      // Playwright's `flaky` outcome: passed on attempt retry + 1 of the same run.
      attempts: status === 'passed' && last.retry > 0 ? last.retry + 1 : undefined,
    },
    flaky: outcome === 'flaky',
  };
}

/** The last attempt that ran to an end: an attempt cut short by an interruption is no verdict. */
export function lastFinishedAttempt(test: TestCase): TestResult | undefined {
  return test.results.findLast((result) => result.status !== 'interrupted');
}

/** Why the last attempt failed: its errors, where Playwright says the first one was thrown, and which attempt it was. */
function failureOf(last: TestResult): RawFailure {
  return { errors: last.errors, location: last.errors[0]?.location, attempts: last.retry + 1 };
}

function statusOf(
  outcome: ReturnType<TestCase['outcome']>,
  last: TestResult,
  test: TestCase,
): CanonicalStatus {
  switch (outcome) {
    case 'expected':
    case 'flaky':
      return 'passed';
    case 'unexpected':
      return 'failed';
    case 'skipped':
      // Skipped though it was meant to run: a beforeAll of its block failed, or an earlier
      // test of its serial group did. The other adapters report such tests failed (Jest's rule).
      return last.status === 'skipped' && test.expectedStatus !== 'skipped' ? 'failed' : 'skipped';
  }
}

/** Titles of the enclosing describe blocks, outermost first; anonymous `test.describe(() => …)` groups have none. */
function describeTitles(test: TestCase): string[] {
  const titles: string[] = [];
  for (let parent: Suite | undefined = test.parent; parent?.type === 'describe'; parent = parent.parent) {
    if (parent.title !== '') titles.unshift(parent.title);
  }
  return titles;
}
