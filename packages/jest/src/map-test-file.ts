import type { AssertionResult, Test, TestResult } from '@jest/test-result';
import type { CanonicalStatus, FileReport, FrameworkProject, RawFailure, RawTest } from '@testrun/core';

type AssertionStatus = AssertionResult['status'];

/** One test file's tests as core takes them; core names them (see "How tests map to results" in the README). */
export function mapTestFile(test: Test | undefined, testResult: TestResult): FileReport {
  return {
    file: testResult.testFilePath,
    project: test ? frameworkProject(test.context.config) : undefined,
    tests: testResult.testResults.map((assertion) => mapAssertion(assertion, testResult.testFilePath)),
    // testExecError: the file failed outside any test (import, describe body, afterAll, a
    // setup file, a crashed worker, no test in it). A failed beforeAll needs nothing here:
    // Jest already fails every test under it.
    failedOutsideTests: testResult.testExecError != null,
    failure: testResult.testExecError ? { errors: [testResult.testExecError] } : undefined,
  };
}

/** The tests of a file that has not ended, as far as they ran: for a process cancelled mid-file. */
export function mapUnfinishedFile(test: Test, assertions: readonly AssertionResult[]): FileReport {
  return {
    file: test.path,
    project: frameworkProject(test.context.config),
    tests: assertions.map((assertion) => mapAssertion(assertion, test.path)),
  };
}

function mapAssertion(assertion: AssertionResult, file: string): RawTest {
  const status = STATUS[assertion.status] ?? 'failed';
  return {
    titles: [...assertion.ancestorTitles, assertion.title],
    status,
    duration: assertion.duration ?? 0,
    failure: status === 'failed' ? failureOf(assertion, file) : undefined,
    // Tries under `jest.retryTimes`: more than one on a passed test, it passed on a retry.
    attempts: status === 'passed' && (assertion.invocations ?? 1) > 1 ? assertion.invocations : undefined,
  };
}

/**
 * What Jest says about a failed test: the errors it threw (`failureDetails`, message and
 * stack apart), or, where a worker could not pass them on as errors, the formatted
 * `failureMessages`; core finds the failing line of the test file in the stack (Jest's own
 * `location`, with testLocationInResults, is where the test is declared: the location only
 * when the stack names no line of the file); `invocations` counts the tries under `jest.retryTimes`.
 */
function failureOf(assertion: AssertionResult, file: string): RawFailure {
  const details = assertion.failureDetails ?? [];
  const errorLike = (error: unknown) =>
    typeof (error as { message?: unknown } | null)?.message === 'string' ||
    typeof (error as { stack?: unknown } | null)?.stack === 'string';
  const { location } = assertion;
  return {
    errors: details.length > 0 && details.every(errorLike) ? details : assertion.failureMessages,
    declaredAt: location ? { file, line: location.line, column: location.column } : undefined,
    attempts: assertion.invocations,
  };
}

/** A Jest project as core takes it: `displayName` (a string, or `{ name, color }`) and `rootDir`. */
function frameworkProject(config: Test['context']['config']): FrameworkProject {
  const displayName: unknown = config.displayName;
  const name =
    typeof displayName === 'string'
      ? displayName
      : typeof (displayName as { name?: unknown } | undefined)?.name === 'string'
        ? (displayName as { name: string }).name
        : undefined;
  return { name: name || undefined, root: config.rootDir };
}

const STATUS: Record<AssertionStatus, CanonicalStatus> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  disabled: 'skipped',
  todo: 'todo',
  // A focused test ran: with `.only` only the others are skipped.
  focused: 'passed',
};
