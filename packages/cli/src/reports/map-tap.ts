import {
  type CanonicalStatus,
  EMPTY_NAME,
  FILE_FAILURE_CASE,
  type RawFailure,
  TITLE_SEPARATOR,
} from '@testrun/core';
import type { MappedCase } from './map-junit.js';
import type { TapIncomplete, TapPoint } from './read-tap.js';
import { toSlashes } from './report-paths.js';

// What a TAP result is called in the service (docs/tap.md): a test point of a test file's
// subtest (node-tap) is a test of that file, named as the reporters name files; any other is
// a result of `suite` (`--suite`, else the report's name), its testCase the names of the
// subtests it is in and its own description joined with ` > `, as the reporters join
// describe titles.

/** `# TODO` → todo (whether it passed or not: it is not done); `# SKIP` → skipped; ok → passed; not ok → failed. */
export function tapStatus({ ok, skip, todo }: Pick<TapPoint, 'ok' | 'skip' | 'todo'>): CanonicalStatus {
  if (todo !== false) return 'todo';
  if (skip !== false) return 'skipped';
  return ok ? 'passed' : 'failed';
}

export function mapTapPoint(point: TapPoint, suite: string): MappedCase {
  const status = tapStatus(point);
  const duration = point.time ?? undefined;
  const failure = status === 'failed' ? failureOf(point) : undefined;
  const titles = point.titles.length === 0 ? [FILE_FAILURE_CASE] : point.titles;
  if (point.file !== undefined) {
    return { kind: 'file', file: toSlashes(point.file), test: { titles, status, duration, failure } };
  }
  const testCase = titles.map((title) => (title.trim() === '' ? EMPTY_NAME : title)).join(TITLE_SEPARATOR);
  return { kind: 'named', result: { testSuite: suite, testCase, status, duration, failure } };
}

/**
 * A stream whose tests did not all run (`Bail out!`, a plan not met, no plan at its end) and
 * in which nothing failed: one failed `(file failed to run)` of its suite saying why, so that
 * the run does not look green. Where a result failed, that says it already (as with Mocha's
 * --bail, the tests that never ran are not reported).
 */
export function mapTapIncomplete(
  { reason, nothingFailed }: TapIncomplete,
  suite: string,
): MappedCase | undefined {
  if (!nothingFailed) return undefined;
  return {
    kind: 'named',
    result: {
      testSuite: suite,
      testCase: FILE_FAILURE_CASE,
      status: 'failed',
      failure: { errors: [`The TAP stream's tests did not all run: ${reason}`] },
    },
  };
}

/**
 * Why a failed point failed, from the YAML diagnostics its writer put after it: the message
 * (node --test's `error`, AVA's `message`; else the point's description, which is the
 * assertion's message in node-tap and tape), what was compared (node-tap's `diff`, AVA's
 * `details`; tape's `expected` and `actual`), the stack, and where (node-tap's `at`, tape's
 * `at` frame; node --test's first frame of the file its `location`, where the test is
 * declared, names). A subtest of a test file that crashed says
 * how its process ended.
 */
function failureOf(point: TapPoint): RawFailure {
  const diag = isObject(point.diag) ? point.diag : {};
  const own = firstText(diag.message, diag.error);
  const description = point.titles.at(-1) ?? point.file ?? '';
  const message = own ?? (description.trim() === '' ? 'not ok' : description);
  const lines = [message, ...comparison(diag, own === undefined), ...processEnd(diag)];
  const stack = typeof diag.stack === 'string' ? diag.stack : '';
  const declaredAt = declarationOf(diag);
  return {
    errors: [{ message: lines.join('\n'), stack }],
    location: locationOf(diag) ?? (declaredAt && frameIn(stack, declaredAt.file)),
    declaredAt,
  };
}

function comparison(diag: Record<string, unknown>, withValues: boolean): string[] {
  if (typeof diag.diff === 'string' && diag.diff.trim() !== '') return [diag.diff.trimEnd()];
  if (isObject(diag.details)) {
    return Object.entries(diag.details).map(([key, value]) => `${key} ${asText(value)}`.trimEnd());
  }
  if (withValues && ('expected' in diag || 'actual' in diag)) {
    return [`expected: ${asText(diag.expected)}`, `actual: ${asText(diag.actual)}`];
  }
  return [];
}

/** node-tap's subtest of a test file says how the file's process ended. */
function processEnd(diag: Record<string, unknown>): string[] {
  if (typeof diag.signal === 'string' && diag.signal !== '')
    return [`its process was ended by ${diag.signal}`];
  if (typeof diag.exitCode === 'number' && diag.exitCode !== 0)
    return [`its process exited with code ${diag.exitCode}`];
  return [];
}

/** `path:line:column` as a whole string or in the parentheses of a stack frame. */
const FRAME = /(?:^|\()((?:file:\/\/)?[^()\s][^()]*?):(\d+)(?::(\d+))?\)?$/;

/** Where it failed, from `at`: an object (node-tap), a stack frame (tape); never a runner's own file. */
function locationOf(diag: Record<string, unknown>): RawFailure['location'] {
  const { at } = diag;
  if (isObject(at)) {
    const file = firstText(at.fileName, at.file);
    if (file !== undefined && !isRunnersOwn(file)) {
      return { file, line: at.lineNumber ?? at.line, column: at.columnNumber ?? at.column };
    }
    return undefined;
  }
  return typeof at === 'string' ? frameOf(at.trim()) : undefined;
}

/** Where the test is declared: node --test's `location`. */
function declarationOf(
  diag: Record<string, unknown>,
): { file: string; line: string; column?: string } | undefined {
  return typeof diag.location === 'string' ? frameOf(diag.location.trim()) : undefined;
}

/** The first frame of `stack` in `file`: the line of the test that threw, not of the helper it called. */
function frameIn(stack: string, file: string): RawFailure['location'] {
  for (const line of stack.split('\n')) {
    const frame = frameOf(line.trim());
    if (frame?.file === file) return frame;
  }
  return undefined;
}

function frameOf(written: string): { file: string; line: string; column?: string } | undefined {
  const match = FRAME.exec(written);
  if (!match || isRunnersOwn(match[1]!)) return undefined;
  return { file: match[1]!, line: match[2]!, ...(match[3] === undefined ? {} : { column: match[3] }) };
}

/** A frame in an installed package (AVA's `at` is its own assert module) or Node itself. */
function isRunnersOwn(file: string): boolean {
  return /[\\/]node_modules[\\/]/.test(file) || file.startsWith('node:');
}

function firstText(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === 'string' && value.trim() !== '') return value.trimEnd();
  return undefined;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
