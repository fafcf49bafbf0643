import {
  type CanonicalStatus,
  FILE_FAILURE_CASE,
  type RawResult,
  toTestCase,
  toTestSuite,
} from '@testrun/core';
import type { TestCase, TestModule, TestSuite } from 'vitest/node';

/**
 * Every result of one test file: one per test, plus one `(file failed to run)` result
 * when the file failed and no test result says so (see "Mapping" in the README).
 */
export function mapTestModule(rootDir: string, module: TestModule): RawResult[] {
  const testSuite = toTestSuite(rootDir, module.moduleId);
  const results: RawResult[] = [];
  for (const test of module.children.allTests()) {
    results.push({
      testSuite,
      testCase: toTestCase([...describeTitles(test), test.name]),
      status: statusOf(test),
      duration: test.diagnostic()?.duration ?? 0,
    });
  }
  if (moduleFailed(module) && !results.some((result) => result.status === 'failed')) {
    results.push({ testSuite, testCase: FILE_FAILURE_CASE, status: 'failed', duration: 0 });
  }
  return results;
}

/** Names of the enclosing describe blocks, outermost first (names, not fullName, which joins with '>'). */
function describeTitles(test: TestCase): string[] {
  const titles: string[] = [];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) {
    titles.unshift(parent.name);
  }
  return titles;
}

function statusOf(test: TestCase): CanonicalStatus {
  if (test.options.mode === 'todo') return 'todo';
  const { state } = test.result();
  if (state === 'passed' || state === 'failed') return state;
  // Vitest skips the tests under a failed beforeAll, where Jest fails them; a test that was
  // meant to run and could not because its block failed is a failure in both adapters.
  if (state === 'skipped' && isMeantToRun(test) && blockFailed(test)) return 'failed';
  return 'skipped';
}

function isMeantToRun(test: TestCase): boolean {
  return test.options.mode === 'run' || test.options.mode === 'only';
}

/** Whether a describe block around the test, or its file, failed outside of any test. */
function blockFailed(test: TestCase): boolean {
  for (let parent: TestSuite | TestModule = test.parent; ; parent = parent.parent) {
    if (parent.errors().length > 0) return true;
    if (parent.type === 'module') return false;
  }
}

function moduleFailed(module: TestModule): boolean {
  return module.errors().length > 0 || module.state() === 'failed';
}
