import path from 'node:path';
import type { CanonicalStatus, FileReport, RawFailure, RawTest } from '@testrun/core';

/** What the reporter reads of one of node:test's `test:start`, `test:pass`, `test:fail` and `test:stderr` events. */
export interface TestEvent {
  type: string;
  data: {
    /** `test:stderr`: what the file's process printed. */
    message?: unknown;
    name?: unknown;
    nesting?: unknown;
    file?: unknown;
    skip?: unknown;
    todo?: unknown;
    details?: {
      duration_ms?: unknown;
      type?: unknown;
      error?: {
        message?: unknown;
        failureType?: unknown;
        cause?: unknown;
        exitCode?: unknown;
        signal?: unknown;
      };
    };
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
 *   own (a `before`/`after` hook threw, its body threw; not just because a test in it failed)
 *   fails the file, with its error; the tests in it node:test cancelled for that (they come
 *   before it, "test did not finish before its parent and was cancelled") take that error.
 * - A test with subtests (`t.test()`) is a result beside them: node:test counts it, and it
 *   fails on its own assertions too.
 * - node:test runs each file in a process of its own and reports the file as a test named
 *   with its path (absolute on Node 20, relative on 22 and 24): failed, the file failed
 *   outside its tests (it did not load, threw at the top level, exited non-zero: why,
 *   fileFailureOf);
 *   passed, the file ran and declared no test, which node:test counts as a passing test:
 *   one result named with the path from the working directory, on every Node. A file
 *   cancelled with the run (SIGTERM, SIGINT: `cancelledByParent`) did not fail: its tests
 *   that ended are its results.
 */
export function mapOutermostTest(
  events: readonly TestEvent[],
  cwd: string,
  stderrOf: (file: string) => string | undefined = () => undefined,
): FileReport | undefined {
  const file = events.find((event) => event.data.nesting === 0)?.data.file;
  if (typeof file !== 'string') return undefined;
  const report: { file: string; tests: RawTest[]; failedOutsideTests: boolean; failure?: RawFailure } = {
    file,
    tests: [],
    failedOutsideTests: false,
  };
  /** What failed the file outside its tests: a block's hook, the file's own test. */
  let outside: RawFailure[] = [];
  const titles: unknown[] = [];
  /** Where each open test's results begin in report.tests, by nesting: a block's tests are those after. */
  const firstResult: number[] = [];
  /** Tests node:test cancelled because their block failed: why is the block's error, which comes after them. */
  const cancelled = new Set<RawTest>();
  for (const { type, data } of events) {
    const nesting = typeof data.nesting === 'number' ? data.nesting : 0;
    if (type === 'test:start') {
      titles.length = nesting;
      titles[nesting] = data.name;
      firstResult[nesting] = report.tests.length;
      continue;
    }
    const failed = type === 'test:fail';
    const duration = data.details?.duration_ms;
    if (nesting === 0 && isFileTest(data.name, file, cwd)) {
      if (!failed) report.tests.push({ titles: [fromCwd(file, cwd)], status: 'passed', duration });
      else if (failureTypeOf(data) === 'cancelledByParent') outside = [];
      else outside.push(fileFailureOf(data, stderrOf(file)));
    } else if (data.details?.type === 'suite') {
      if (failed && failureTypeOf(data) !== 'subtestsFailed') {
        const failure = failureOf(data);
        outside.push(failure);
        if (failureTypeOf(data) !== 'cancelledByParent') {
          for (const test of report.tests.slice(firstResult[nesting] ?? 0)) {
            if (!cancelled.delete(test)) continue;
            test.failure = { ...test.failure, errors: failure.errors };
          }
        }
      }
    } else {
      const status = statusOf(data, failed);
      const test: RawTest = {
        titles: [...titles.slice(0, nesting), data.name],
        status,
        duration,
        failure: status === 'failed' ? failureOf(data) : undefined,
      };
      report.tests.push(test);
      if (status === 'failed' && failureTypeOf(data) === 'cancelledByParent') cancelled.add(test);
    }
  }
  if (outside.length > 0) {
    report.failedOutsideTests = true;
    const { declaredAt } = outside[0]!;
    const errors = outside.flatMap((failure) => failure.errors ?? []);
    report.failure = declaredAt ? { errors, declaredAt } : { errors };
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

/**
 * Why a file failed outside its tests, as node:test reports it in the test it names with the
 * file's path: a hook at the top of the file that threw is its `cause`. A file that did not
 * load, or whose process exited non-zero, has only `test failed` there, with the exit code:
 * what it printed to stderr says why (node:test passes a file's stderr to reporters as
 * `test:stderr` events; the reporter keeps the last of it), read as an error from its message
 * up to the first stack frame. With no stderr, the exit code or signal is what is known.
 */
function fileFailureOf(data: TestEvent['data'], stderr: string | undefined): RawFailure {
  const error = data.details?.error;
  const cause = error?.cause;
  if (typeof (cause as { message?: unknown } | null)?.message === 'string') return failureOf(data);
  const printed = stderr ? errorInStderr(stderr) : undefined;
  if (printed) return { errors: [printed] };
  const said = typeof error?.message === 'string' && error.message !== '' ? error.message : 'test failed';
  const { exitCode, signal } = error ?? {};
  const how =
    typeof signal === 'string' && signal !== ''
      ? `: its process was ended by ${signal}`
      : typeof exitCode === 'number' && exitCode !== 0
        ? `: its process exited with code ${exitCode}`
        : '';
  return { errors: [`${said}${how}`] };
}

/**
 * What a process printed before it failed, as an error: the paragraph before the first stack
 * frame is the message (Node prints the source line and a caret above it), the whole text the
 * stack (its first line names the file and line of a syntax error). No frame: all of it.
 */
export function errorInStderr(stderr: string): { message: string; stack: string } | undefined {
  const text = stderr.replace(/\n*Node\.js v\d+\.\d+\.\d+\s*$/, '').trim();
  if (text === '') return undefined;
  const lines = text.split('\n');
  const frame = lines.findIndex((line) => /^\s+at /.test(line));
  if (frame === -1) return { message: text, stack: '' };
  let from = frame;
  while (from > 0 && lines[from - 1]!.trim() !== '') from -= 1;
  const message = lines.slice(from, frame).join('\n').trim();
  return { message: message || text, stack: text };
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

/** How much of a file's stderr is kept: the last 8 KB, where a process that fails prints why. */
const STDERR_KEPT = 8 * 1024;

/**
 * Each file's stderr (node:test's `test:stderr` events) since the file's last outermost test
 * ended, the last STDERR_KEPT characters of it: memory stays bounded however much a suite prints.
 */
export class FileStderr {
  private readonly kept = new Map<string, string>();

  keep(file: unknown, message: unknown): void {
    if (typeof file !== 'string' || typeof message !== 'string') return;
    const text = (this.kept.get(file) ?? '') + message;
    this.kept.set(file, text.length > STDERR_KEPT ? text.slice(-STDERR_KEPT) : text);
  }

  of(file: string): string | undefined {
    return this.kept.get(file);
  }

  forget(file: string): void {
    this.kept.delete(file);
  }
}
