import path from 'node:path';
import type { CanonicalStatus, FileReport, RawFailure, RawTest } from '@testrun/core';

/** What the reporter reads of one of node:test's `test:start`, `test:pass` and `test:fail` events. */
export interface TestEvent {
  type: string;
  data: {
    name?: unknown;
    nesting?: unknown;
    file?: unknown;
    skip?: unknown;
    todo?: unknown;
    details?: { duration_ms?: unknown; type?: unknown; error?: { failureType?: unknown; cause?: unknown } };
    line?: unknown;
    column?: unknown;
  };
}

/**
 * One outermost test's events, in the order node:test reports them (each `test:start`
 * before its subtests' events, each `test:pass`/`test:fail` after them), as the FileReport
 * of its file. The file is the outermost test's: a subtest's `file` is where `t.test()`
 * was called, which may be a helper module.
 *
 * - A `describe` block arrives as a test of type `suite`: no result. One that failed on its
 *   own (a `before`/`after` hook threw; not just because a test in it failed) fails the file.
 * - A test with subtests (`t.test()`) is a result beside them: node:test counts it, and it
 *   fails on its own assertions too.
 * - node:test runs each file in a process of its own and reports the file as a test named
 *   with its path (absolute on Node 20, relative on 22 and 24): failed, the file failed
 *   outside its tests (it did not load, threw at the top level, exited non-zero);
 *   passed, the file ran and declared no test, which node:test counts as a passing test:
 *   one result named with the path from the working directory, on every Node. A file
 *   cancelled with the run (SIGTERM, SIGINT: `cancelledByParent`) did not fail: its tests
 *   that ended are its results.
 */
export function mapOutermostTest(events: readonly TestEvent[], cwd: string): FileReport | undefined {
  const file = events.find((event) => event.data.nesting === 0)?.data.file;
  if (typeof file !== 'string') return undefined;
  const report: { file: string; tests: RawTest[]; failedOutsideTests: boolean } = {
    file,
    tests: [],
    failedOutsideTests: false,
  };
  const titles: unknown[] = [];
  for (const { type, data } of events) {
    const nesting = typeof data.nesting === 'number' ? data.nesting : 0;
    if (type === 'test:start') {
      titles.length = nesting;
      titles[nesting] = data.name;
      continue;
    }
    const failed = type === 'test:fail';
    const duration = data.details?.duration_ms;
    if (nesting === 0 && isFileTest(data.name, file, cwd)) {
      if (failed) report.failedOutsideTests = failureTypeOf(data) !== 'cancelledByParent';
      else report.tests.push({ titles: [fromCwd(file, cwd)], status: 'passed', duration });
    } else if (data.details?.type === 'suite') {
      if (failed && failureTypeOf(data) !== 'subtestsFailed') report.failedOutsideTests = true;
    } else {
      const status = statusOf(data, failed);
      report.tests.push({
        titles: [...titles.slice(0, nesting), data.name],
        status,
        duration,
        failure: status === 'failed' ? failureOf(data) : undefined,
      });
    }
  }
  return report;
}

/**
 * Why a test failed: node:test wraps what the test threw (`cause`) in an ERR_TEST_FAILURE
 * whose stack is its own; the cause is the test's error when it is one (a failed subtest or
 * a timeout has none). Its `line` and `column` are where the test is declared.
 */
function failureOf(data: TestEvent['data']): RawFailure {
  const error = data.details?.error;
  const cause = error?.cause;
  const errorLike = typeof (cause as { message?: unknown } | null)?.message === 'string';
  return {
    errors: [errorLike ? cause : error],
    declaredAt: { file: data.file, line: data.line, column: data.column },
  };
}

function failureTypeOf(data: TestEvent['data']): unknown {
  return data.details?.error?.failureType;
}

function statusOf(data: TestEvent['data'], failed: boolean): CanonicalStatus {
  if (data.todo !== undefined && data.todo !== false) return 'todo';
  if (data.skip !== undefined && data.skip !== false) return 'skipped';
  return failed ? 'failed' : 'passed';
}

/** The test node:test makes for a file it runs in a process of its own: named with the file's path. */
function isFileTest(name: unknown, file: string, cwd: string): boolean {
  return typeof name === 'string' && path.resolve(cwd, name) === file;
}

function fromCwd(file: string, cwd: string): string {
  return path.relative(cwd, file).split(path.sep).join('/');
}
