import {
  type CanonicalStatus,
  isPlausibleDuration,
  type RawAttachment,
  type RawFailure,
  TITLE_SEPARATOR,
} from '@testrun/core';
import { namedFiles } from './attachment-paths.js';
import type { MappedCase } from './map-junit.js';
import type { CtrfTest } from './read-ctrf.js';
import { toSlashes } from './report-paths.js';

// What a CTRF test is called in the service, by the rules JUnit testcases follow
// (map-junit.ts; docs/ctrf.md says the same for users):
//
// testSuite: `filePath`, named as core names the reporters' files (relative to the
// checkout, whatever machine wrote it: report-paths.ts); else `suite`; else (unnamed).
// testCase: where the file gives the testSuite, the levels of `suite` that do not name the
// file, then `name`, joined with ` > ` as the reporters join describe titles. Writers that
// write the full title as `name` (jest-ctrf: "Cart totals sums") get it without the levels
// already there ("Cart > totals > sums", what @testrun/jest sends). Where the file is
// missing the suite is the testSuite, and `name` the testCase as written.
//
// Retries: CTRF writes one entry per test, with the last attempt's status, so a test that
// passed on a retry (`flaky: true`) is `passed`, as the reporters count it.

/**
 * `rawStatus` words, lower case and without separators, that say a test failed: a writer
 * that files a failure under `other` (Cucumber's undefined and ambiguous steps, which fail
 * its run; a crash) gets it stored as the failure it is.
 */
const FAILED_RAW_STATUSES = new Set([
  'fail',
  'failed',
  'failure',
  'error',
  'errored',
  'broken',
  'timedout',
  'timeout',
  'interrupted',
  'crashed',
  'undefined',
  'ambiguous',
]);

/**
 * CTRF status → the status core sends (docs/ctrf.md#status):
 * - passed, failed, skipped as they are;
 * - pending → skipped: a test that was declared but not run (Jest's and Mocha's `it.skip`
 *   are "pending" to their tools), which the reporters send as skipped;
 * - other → what `rawStatus` says where it says failed or todo; else skipped: a status
 *   the tool has and CTRF has not (Jest's todo, disabled), neither a pass nor a failure
 *   anyone reported. Never passed.
 */
export function ctrfStatus(test: Pick<CtrfTest, 'status' | 'rawStatus'>): CanonicalStatus {
  switch (test.status) {
    case 'passed':
    case 'failed':
    case 'skipped':
      return test.status;
    case 'pending':
      return 'skipped';
    case 'other': {
      const raw =
        typeof test.rawStatus === 'string' ? test.rawStatus.toLowerCase().replace(/[\s_-]/g, '') : '';
      if (FAILED_RAW_STATUSES.has(raw)) return 'failed';
      return raw === 'todo' ? 'todo' : 'skipped';
    }
  }
}

/**
 * `duration` in milliseconds. Undefined when missing; NaN when written but not a number of
 * milliseconds (a string, a negative number, more than 24.8 days): an unknown duration, which
 * core sends as 0.
 */
export function ctrfDuration(duration: unknown): number | undefined {
  if (duration === undefined || duration === null) return undefined;
  return isPlausibleDuration(duration) ? duration : Number.NaN;
}

export function mapCtrfTest(test: CtrfTest, reportDir: string = process.cwd()): MappedCase {
  const status = ctrfStatus(test);
  const duration = ctrfDuration(test.duration);
  const name = typeof test.name === 'string' || typeof test.name === 'number' ? String(test.name) : undefined;
  const levels = suiteLevels(test.suite);
  const filePath =
    typeof test.filePath === 'string' && test.filePath.trim() !== '' ? test.filePath : undefined;

  const failure = status === 'failed' ? failureOf(test, filePath && toSlashes(filePath)) : undefined;
  const attachments = attachmentsOf(test.attachments, reportDir);
  if (filePath !== undefined) {
    const file = toSlashes(filePath);
    const ancestors = levels.filter((level) => !namesFile(level, file));
    return {
      kind: 'file',
      file,
      test: {
        titles: [...ancestors, ownTitle(name ?? '', ancestors)],
        status,
        duration,
        failure,
        attachments,
      },
    };
  }
  const testSuite = levels.length > 0 ? levels.join(TITLE_SEPARATOR) : undefined;
  return { kind: 'named', result: { testSuite, testCase: name, status, duration, failure, attachments } };
}

/** CTRF's `attachments` (`[{ name, contentType, path }]`): those with a path; anything else is left out. */
function attachmentsOf(written: unknown, reportDir: string): RawAttachment[] | undefined {
  if (!Array.isArray(written)) return undefined;
  const files = written
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .filter((item) => typeof item.path === 'string' && item.path.trim() !== '')
    .map((item) => ({
      path: item.path as string,
      name: typeof item.name === 'string' ? item.name : undefined,
      contentType: typeof item.contentType === 'string' ? item.contentType : undefined,
    }));
  return namedFiles(files, reportDir);
}

/**
 * Why a failed test failed, as CTRF writes it: `message` and `trace` (its stack); `line`,
 * where the test is (the location when the trace names no line of the file); `retries`,
 * how many times it was tried again. Nothing when the writer said none of it.
 */
function failureOf(test: CtrfTest, file: string | undefined): RawFailure | undefined {
  const message = typeof test.message === 'string' ? test.message : '';
  const trace = typeof test.trace === 'string' ? test.trace : '';
  const retries =
    typeof test.retries === 'number' && Number.isInteger(test.retries) ? test.retries : undefined;
  if (message === '' && trace === '' && retries === undefined) return undefined;
  return {
    errors: message === '' && trace === '' ? [] : [{ message, stack: trace }],
    declaredAt: file === undefined ? undefined : { file, line: test.line },
    attempts: retries === undefined ? undefined : retries + 1,
  };
}

/** `suite` as its levels: an array as it is, a string split at ` > ` (how writers join them). */
function suiteLevels(suite: unknown): string[] {
  const levels = Array.isArray(suite)
    ? suite.map((level) => String(level ?? ''))
    : typeof suite === 'string'
      ? suite.split(TITLE_SEPARATOR)
      : [];
  return levels.map((level) => level.trim()).filter((level) => level !== '');
}

/**
 * A suite level that names the test's file: jest-ctrf starts the suite with the file's
 * name, Playwright's with its path below the test folder. Compared with `/`, from the end.
 */
function namesFile(level: string, file: string): boolean {
  const slashed = toSlashes(level);
  return slashed === file || file.endsWith(`/${slashed.replace(/^\.\//, '')}`);
}

/** `name` without the levels it starts with: writers that write the full title repeat them, joined with spaces. */
function ownTitle(name: string, ancestors: readonly string[]): string {
  if (ancestors.length === 0) return name;
  const prefix = `${ancestors.join(' ')} `;
  return name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : name;
}
