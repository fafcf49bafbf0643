import type { TestResult } from '@jest/test-result';
import type { CanonicalStatus, FileReport } from '@testrun/core';

type AssertionStatus = TestResult['testResults'][number]['status'];

/** One test file's tests as core takes them; core names them (see "Mapping" in the README). */
export function mapTestFile(testResult: TestResult): FileReport {
  return {
    file: testResult.testFilePath,
    tests: testResult.testResults.map((assertion) => ({
      titles: [...assertion.ancestorTitles, assertion.title],
      status: STATUS[assertion.status] ?? 'failed',
      duration: assertion.duration ?? 0,
    })),
    // testExecError: the file failed outside any test (import, describe body, afterAll).
    // A failed beforeAll needs nothing here: Jest already fails every test under it.
    failedOutsideTests: testResult.testExecError != null,
  };
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
