import { FILE_FAILURE_CASE, type RawResult, type RawTest } from '@testrun/core';
import type { JunitSuiteFailure, JunitTestcase } from './read-junit.js';

// What a JUnit testcase is called in the service: the README's "Upload JUnit XML" table.
//
// testSuite, first that applies:
//   1. the `file` attribute (the testcase's, else its <testsuite>'s): core names it, relative
//      to the current directory, as it names the files of the reporters;
//   2. `classname`, unless it only repeats the name (jest-junit's default templates);
//   3. the enclosing <testsuite>'s `name`.
// testCase: the name. Where the file gives the testSuite, the classname goes first
// (`Class > name`), so that two classes in one file (pytest, PHPUnit) or two describe
// blocks (jest-junit with classNameTemplate "{classname}") cannot collide; it is left out
// where it adds nothing: empty, the file again (as a path or a dotted module name), or
// already part of the name. Where the file is missing the classname is the testSuite, so
// it is part of the identity already.

/** A testcase's result, on its way to core: a test of a file core names, or a result already named. */
export type MappedCase = { kind: 'file'; file: string; test: RawTest } | { kind: 'named'; result: RawResult };

/**
 * How known writers mark a file that failed outside its tests. jest-junit: the classname
 * of a suite that did not load (with reportTestSuiteErrors; the name is its path), and
 * the title of the testcase it adds when a hook such as afterAll throws. pytest: a module
 * that failed to collect is a testcase with an empty classname, named after the module.
 */
const JEST_JUNIT_LOAD_FAILURE_CLASS = 'Test suite failed to run';
const JEST_JUNIT_HOOK_FAILURE_NAME = "Test execution failure: could be caused by test hooks like 'afterAll'.";
const PYTEST_SUITE_NAME = 'pytest';

export function mapTestcase(testcase: JunitTestcase): MappedCase {
  const { name, classname, suiteName, outcome } = testcase;
  const status = outcome;
  const duration = toMilliseconds(testcase.time);
  const failed = outcome === 'failed';
  const file = testcase.file ?? (failed && classname === JEST_JUNIT_LOAD_FAILURE_CLASS ? name : undefined);

  if (file !== undefined) {
    const titles = standsForFile(testcase, [file, moduleName(file)])
      ? [FILE_FAILURE_CASE]
      : caseTitles(name, classname, file);
    return { kind: 'file', file, test: { titles, status, duration } };
  }
  if (failed && classname === '' && suiteName === PYTEST_SUITE_NAME && nonEmpty(name)) {
    return { kind: 'named', result: { testSuite: name, testCase: FILE_FAILURE_CASE, status, duration } };
  }
  // A classname equal to the name is no class (jest-junit's default templates), unless nothing else names the suite.
  const suite =
    nonEmpty(classname) && (classname !== name || suiteName === undefined) ? classname : suiteName;
  const testCase = standsForFile(testcase, [suite]) ? FILE_FAILURE_CASE : name;
  return { kind: 'named', result: { testSuite: suite, testCase, status, duration } };
}

/** A <testsuite> that failed on its own with no failed testcase inside: `(file failed to run)`. */
export function mapSuiteFailure(suite: JunitSuiteFailure): MappedCase | undefined {
  if (suite.failedTestcases > 0) return undefined;
  const test: RawTest = { titles: [FILE_FAILURE_CASE], status: 'failed', duration: 0 };
  if (suite.file !== undefined) return { kind: 'file', file: suite.file, test };
  return {
    kind: 'named',
    result: { testSuite: suite.name, testCase: FILE_FAILURE_CASE, status: 'failed', duration: 0 },
  };
}

/** `time` is in seconds; some writers group thousands (`1,234.5`). Anything else is left to core, which sends 0. */
export function toMilliseconds(time: string | undefined): number | undefined {
  if (time === undefined || time.trim() === '') return undefined;
  return Number(time.trim().replace(/,/g, '')) * 1000;
}

/**
 * A failed testcase named after what holds it is the file's own failure, not a test:
 * Vitest writes a file that did not load, or whose afterAll threw, as a testcase named
 * like the file, Surefire a class whose @BeforeAll threw as one named like the class;
 * jest-junit uses the names above.
 */
function standsForFile(testcase: JunitTestcase, holderNames: readonly (string | undefined)[]): boolean {
  if (testcase.outcome !== 'failed') return false;
  const { name, classname } = testcase;
  return (
    (name !== undefined && holderNames.includes(name)) ||
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

/** A file's path as a dotted module name, as pytest writes classnames: `tests/test_cart.py` → `tests.test_cart`. */
function moduleName(file: string): string {
  return file
    .replace(/^\.[\\/]/, '')
    .replace(/\.[^./\\]+$/, '')
    .replace(/[\\/]/g, '.');
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
