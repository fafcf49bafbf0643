import type { Suite, TestCase, TestResult } from '@playwright/test/reporter';
import {
  type CanonicalStatus,
  outputAttachments,
  type RawAttachment,
  type RawFailure,
  type RawTest,
} from '@testrun/core';

/** One test as core takes it, with whether Playwright called it flaky; core names it (see "Mapping" in the README). */
export interface MappedTest {
  test: RawTest;
  flaky: boolean;
}

/**
 * A test that finished at least one attempt, mapped from its final outcome and its last
 * finished attempt; undefined for a test that never finished one (the run was interrupted
 * or stopped by --max-failures before it ran): it did not run, so it is no result.
 * `fileTests`: the tests of its file in its project, where the error of a test Playwright
 * skipped because another failed first is found (failureOf).
 */
export function mapTest(test: TestCase, fileTests: readonly TestCase[] = []): MappedTest | undefined {
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
      failure: status === 'failed' ? failureOf(test, last, fileTests) : undefined,
      // Playwright's `flaky` outcome: passed on attempt retry + 1 of the same run.
      attempts: status === 'passed' && last.retry > 0 ? last.retry + 1 : undefined,
      attachments: attachmentsOf(test),
    },
    flaky: outcome === 'flaky',
  };
}

/**
 * What every finished attempt attached (`TestResult.attachments`: screenshots, videos, the
 * trace, `testInfo.attach`), and what it printed (the last 64 KB of its stdout and stderr),
 * each with the attempt it came from. Core keeps them as the `attachments` option says (a
 * failed test's, by default) and reads no file before that. Playwright's own internal
 * attachments (`_…`, which its HTML report hides too) are left out.
 */
function attachmentsOf(test: TestCase): RawAttachment[] | undefined {
  const attached: RawAttachment[] = [];
  for (const result of test.results) {
    if (result.status === 'interrupted') continue;
    const attempt = result.retry + 1;
    // Read loosely: a merged report's or a recording's results may lack either list.
    for (const { name, contentType, path, body } of result.attachments ?? []) {
      if (name.startsWith('_')) continue;
      attached.push({ name, contentType, path, body, attempt });
    }
    attached.push(
      ...outputAttachments({ stdout: result.stdout ?? [], stderr: result.stderr ?? [] }, attempt),
    );
  }
  return attached.length > 0 ? attached : undefined;
}

/** The last attempt that ran to an end: an attempt cut short by an interruption is no verdict. */
export function lastFinishedAttempt(test: TestCase): TestResult | undefined {
  return test.results.findLast((result) => result.status !== 'interrupted');
}

/**
 * Why the last attempt failed: its errors, where Playwright says the first one was thrown, and
 * which attempt it was. An attempt without errors failed for another reason Playwright knows:
 * - skipped though meant to run (a beforeAll hook of its block threw, or an earlier test of
 *   its serial group failed): Playwright gives the error to the test that ran when it came
 *   and none to those it then skipped, so theirs is that test's (failedInItsPlace), as Jest
 *   and Vitest give the hook's error to every test under it;
 * - `test.fail()` that passed: Playwright's own words for it.
 */
function failureOf(test: TestCase, last: TestResult, fileTests: readonly TestCase[]): RawFailure {
  const attempts = last.retry + 1;
  if (last.errors.length > 0) return { errors: last.errors, location: last.errors[0]?.location, attempts };
  if (last.status === 'passed') return { errors: ['Expected to fail, but passed.'], attempts };
  const standIn = failedInItsPlace(test, fileTests);
  if (!standIn) return { errors: [NOT_RUN], attempts };
  return { errors: standIn.errors, location: standIn.errors[0]?.location, attempts };
}

/** What a test Playwright skipped after a failure says when no test of its file holds that failure. */
const NOT_RUN =
  'Playwright did not run this test: a beforeAll hook of its block, or an earlier test of its serial group, failed';

/**
 * The last failed attempt, with errors, of the test in the same file and project that shares
 * the innermost describe block with `test` (the hook's block, the serial group): the one
 * before it in the file when several do.
 */
function failedInItsPlace(test: TestCase, fileTests: readonly TestCase[]): TestResult | undefined {
  const chain = ancestors(test);
  const index = fileTests.indexOf(test);
  let best: { result: TestResult; depth: number; before: boolean } | undefined;
  fileTests.forEach((other, i) => {
    if (other === test) return;
    const result = lastFinishedAttempt(other);
    if (!result || result.errors.length === 0 || result.status === 'passed' || result.status === 'skipped')
      return;
    const theirs = ancestors(other);
    let depth = 0;
    while (depth < chain.length && chain[depth] === theirs[depth]) depth += 1;
    const before = i < index;
    // Deeper wins; at the same depth, the nearest one before `test` (the list is in file order).
    if (!best || depth > best.depth || (depth === best.depth && before)) best = { result, depth, before };
  });
  return best?.result;
}

/** The suites around a test, outermost first. */
function ancestors(test: TestCase): Suite[] {
  const suites: Suite[] = [];
  for (let parent: Suite | undefined = test.parent; parent; parent = parent.parent) suites.unshift(parent);
  return suites;
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
