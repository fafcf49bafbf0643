import {
  FILE_FAILURE_CASE,
  isPlausibleDuration,
  type RawFailure,
  type RawResult,
  type RawTest,
} from '@testrun/core';
import { namedFiles } from './attachment-paths.js';
import type { JunitSuiteFailure, JunitTestcase } from './read-junit.js';
import { type ReportPaths, toSlashes } from './report-paths.js';
import type { WriterRules } from './writer-rules.js';

// What a JUnit testcase is called in the service: docs/junit.md#how-a-testcase-maps-to-a-result.
//
// testSuite, first that applies:
//   1. the `file` attribute (the testcase's, else its <testsuite>'s, else the one a sibling
//      "Root Suite" gives: Cypress): core names it, relative to the current directory, as it
//      names the files of the reporters (report-paths.ts makes a foreign path local first);
//   2. `classname`, unless it only repeats the name (jest-junit's default templates);
//   3. the enclosing <testsuite>'s `name`.
// testCase: the name. Where the file gives the testSuite, the classname goes first
// (`Class > name`), so that two classes in one file (pytest, PHPUnit) or two describe
// blocks (jest-junit with classNameTemplate "{classname}") cannot collide; it is left out
// where it adds nothing: empty, the file again (as a path or a dotted module name), or
// already part of the name. Where the file is missing the classname is the testSuite, so
// it is part of the identity already.

/** A testcase's result, on its way to core: a test of a file core names, or a result already named. */
export type MappedCase = (
  | { kind: 'file'; file: string; test: RawTest }
  | { kind: 'named'; result: RawResult }
) & {
  /**
   * Set where the writer writes a rerun as the testcase again (WriterRules.rerunsAsRepeats):
   * testcases with the same key (<testsuite>, file, classname, name) are attempts of one test.
   */
  attemptsOf?: string;
};

/** What mapping needs besides the testcase: how its writer writes, and how its paths read. */
export interface MappingContext {
  rules: WriterRules;
  paths: ReportPaths;
  /** The report's folder: a relative `[[ATTACHMENT|…]]` path not found from the current directory is looked for there. */
  reportDir: string;
}

/**
 * How known writers mark a file that failed outside its tests. jest-junit: the classname
 * of a suite that did not load (with reportTestSuiteErrors; the name is its path), and
 * the title of the testcase it adds when a hook such as afterAll throws. pytest: a module
 * that failed to collect is a testcase with an empty classname, named after the module.
 */
const JEST_JUNIT_LOAD_FAILURE_CLASS = 'Test suite failed to run';
const JEST_JUNIT_HOOK_FAILURE_NAME = "Test execution failure: could be caused by test hooks like 'afterAll'.";
const PYTEST_SUITE_NAME = 'pytest';

/**
 * A classname that is a path to a file, as Nette Tester writes one (`tests\Cart.phpt`,
 * `tests\Cart.phpt method=testAdds`): folders, a file name with an extension, no spaces;
 * then, after a space, anything. Backslashes and absolute paths in the path are turned
 * into a relative path with `/`, as `file` attributes are.
 */
const PATH_LIKE = /^((?:[A-Za-z]:)?[\\/]?(?:[^\\/\s]+[\\/])+[^\\/\s]+\.[A-Za-z0-9]+)(\s.*)?$/s;

export function mapTestcase(
  testcase: JunitTestcase,
  { rules, paths, reportDir }: MappingContext,
): MappedCase {
  const { suiteName, outcome } = testcase;
  const classname = asPath(testcase.classname, paths);
  // Nette Tester names a test like its file, in both attributes.
  const name = testcase.name === testcase.classname ? classname : testcase.name;
  const status = outcome;
  const duration = toMilliseconds(testcase.time);
  const failed = outcome === 'failed';
  const failure = failed ? failureOf(testcase) : undefined;
  const attachments = namedFiles(
    (testcase.attachments ?? []).map((written) => ({ path: written })),
    reportDir,
  );
  const written = testcase.file ?? (failed && classname === JEST_JUNIT_LOAD_FAILURE_CLASS ? name : undefined);
  const attemptsOf =
    rules.rerunsAsRepeats && name !== undefined
      ? [testcase.suite, testcase.file ?? '', testcase.classname ?? '', name].join('\u0000')
      : undefined;

  if (written !== undefined) {
    const file = toSlashes(written);
    const pytestCollectionError = isPytestCollectionError(testcase, name === moduleName(file));
    const titles =
      pytestCollectionError || standsForFile({ outcome, name, classname }, rules, [file, moduleName(file)])
        ? [FILE_FAILURE_CASE]
        : caseTitles(name, classname, file);
    return { kind: 'file', file, test: { titles, status, duration, failure, attachments }, attemptsOf };
  }
  if (isPytestCollectionError(testcase, nonEmpty(name))) {
    return {
      kind: 'named',
      result: { testSuite: name, testCase: FILE_FAILURE_CASE, status, duration, failure },
      attemptsOf,
    };
  }
  // A classname equal to the name is no class (jest-junit's default templates), unless nothing else names the suite.
  const suite =
    nonEmpty(classname) && (classname !== name || suiteName === undefined) ? classname : suiteName;
  const testCase = standsForFile({ outcome, name, classname }, rules, [suite]) ? FILE_FAILURE_CASE : name;
  return {
    kind: 'named',
    result: { testSuite: suite, testCase, status, duration, failure, attachments },
    attemptsOf,
  };
}

/**
 * Why the testcase failed, from its first <failure> or <error>: the `message` attribute and
 * the text as its stack; without a message, the text alone (core takes its lines before the
 * first stack frame as the message). A <failure/> with neither says nothing.
 */
function failureOf({ failure }: JunitTestcase): RawFailure | undefined {
  if (!failure) return undefined;
  const message = failure.message?.trim() ?? '';
  const text = failure.text.trim();
  if (message === '' && text === '') return undefined;
  return { errors: [message === '' ? text : { message, stack: text }] };
}

/** A <testsuite> that failed on its own with no failed testcase inside: `(file failed to run)`. */
export function mapSuiteFailure(suite: JunitSuiteFailure): MappedCase | undefined {
  if (suite.failedTestcases > 0) return undefined;
  const test: RawTest = { titles: [FILE_FAILURE_CASE], status: 'failed', duration: 0 };
  if (suite.file !== undefined) return { kind: 'file', file: toSlashes(suite.file), test };
  return {
    kind: 'named',
    result: { testSuite: suite.name, testCase: FILE_FAILURE_CASE, status: 'failed', duration: 0 },
  };
}

/**
 * `time` in seconds, as milliseconds: `0.014`, `12`, `.5`; `1,204.101` (old Surefire groups
 * thousands); `0,014` (a single decimal comma: localized .NET conversions). Undefined when
 * missing; NaN when written but not a number of seconds (`soon`, `-1`, `0x10`, `1e3`,
 * `1,2,3`) or more than 24.8 days: an unknown duration, which core sends as 0, never another number.
 */
export function toMilliseconds(time: string | undefined): number | undefined {
  if (time === undefined || time.trim() === '') return undefined;
  const ms = writtenMilliseconds(time.trim());
  // More than core sends (MAX_DURATION_MS, 24.8 days) is no test's time either.
  return isPlausibleDuration(ms) ? ms : Number.NaN;
}

function writtenMilliseconds(text: string): number {
  if (/^\d+,\d+$/.test(text)) return Number(text.replace(',', '.')) * 1000;
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(text)) return Number(text.replace(/,/g, '')) * 1000;
  if (/^(?:\d+\.?\d*|\.\d+)$/.test(text)) return Number(text) * 1000;
  return Number.NaN;
}

/** pytest's module that failed to collect: an empty classname, the module as the name. */
function isPytestCollectionError(testcase: JunitTestcase, namedLikeTheModule: boolean): boolean {
  return (
    testcase.outcome === 'failed' &&
    testcase.classname === '' &&
    testcase.suiteName === PYTEST_SUITE_NAME &&
    namedLikeTheModule
  );
}

/** A classname that is a path, with `/` and never absolute; any other classname as it is. */
function asPath(classname: string | undefined, paths: ReportPaths): string | undefined {
  const path = classname === undefined ? undefined : PATH_LIKE.exec(classname);
  return path ? `${paths.name(path[1]!)}${path[2] ?? ''}` : classname;
}

/**
 * A failed testcase that stands for its whole file: jest-junit's by their names; and, for
 * writers that do so (WriterRules), one named after what holds it: Vitest writes a file
 * that did not load, or whose afterAll threw, as a testcase named like the file, Surefire
 * a class whose @BeforeAll threw as one named like the class.
 */
function standsForFile(
  { outcome, name, classname }: Pick<JunitTestcase, 'outcome' | 'name' | 'classname'>,
  rules: WriterRules,
  holderNames: readonly (string | undefined)[],
): boolean {
  if (outcome !== 'failed') return false;
  return (
    (rules.namesFileFailuresLikeTheFile && name !== undefined && holderNames.includes(name)) ||
    classname === JEST_JUNIT_LOAD_FAILURE_CLASS ||
    name?.endsWith(JEST_JUNIT_HOOK_FAILURE_NAME) === true
  );
}

function caseTitles(name: string | undefined, classname: string | undefined, file: string): string[] {
  const owner = classWithinFile(classname, file);
  const title = name ?? '';
  if (!owner || title === owner || title.endsWith(` ${owner}`)) return [title];
  return [owner, title];
}

/** The classname without what repeats the file: `tests.test_cart.TestCart` in `tests/test_cart.py` is `TestCart`. */
function classWithinFile(classname: string | undefined, file: string): string {
  if (!nonEmpty(classname) || classname === file) return '';
  const module = moduleName(file);
  if (classname === module) return '';
  return classname.startsWith(`${module}.`) ? classname.slice(module.length + 1) : classname;
}

/**
 * A file's path as a dotted module name, as pytest writes classnames: `tests/test_cart.py` → `tests.test_cart`.
 * The path has `/` only: every caller passes it through toSlashes.
 */
function moduleName(file: string): string {
  return file
    .replace(/^\.\//, '')
    .replace(/\.[^./]+$/, '')
    .replace(/\//g, '.');
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
