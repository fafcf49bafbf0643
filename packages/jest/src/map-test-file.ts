import type { TestResult } from '@jest/test-result';
import {
  type CanonicalStatus,
  FILE_FAILURE_CASE,
  type RawResult,
  toTestCase,
  toTestSuite,
} from '@testrun/core';

type AssertionStatus = TestResult['testResults'][number]['status'];

/**
 * Every result of one test file: one per test, plus one `(file failed to run)` result
 * when the file failed and no test result says so (see "Mapping" in the README).
 */
export function mapTestFile(rootDir: string, testResult: TestResult): RawResult[] {
  const testSuite = toTestSuite(rootDir, testResult.testFilePath);
  const results: RawResult[] = testResult.testResults.map((assertion) => ({
    testSuite,
    testCase: toTestCase([...assertion.ancestorTitles, assertion.title]),
    status: STATUS[assertion.status] ?? 'failed',
    duration: assertion.duration ?? 0,
  }));
  // testExecError: the file failed outside any test (import, describe body, afterAll).
  // A failed beforeAll needs nothing here: Jest already fails every test under it.
  const fileFailed = testResult.testExecError != null;
  if (fileFailed && !results.some((result) => result.status === 'failed')) {
    results.push({ testSuite, testCase: FILE_FAILURE_CASE, status: 'failed', duration: 0 });
  }
  return results;
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
