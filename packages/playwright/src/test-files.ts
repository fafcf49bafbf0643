import type { FullProject, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';

/** One spec file as one project runs it: Playwright runs the same file once per project. */
export interface TestFile {
  file: string;
  project: FullProject | undefined;
  tests: TestCase[];
  /** Tests that may still get another attempt (a retry), so the file is not finished yet. */
  unsettled: Set<TestCase>;
  /** Handed to core already; anything that comes later is reported on its own. */
  reported: boolean;
  /** The file failed outside its tests (an error Playwright placed in it). */
  failedOutsideTests: boolean;
  /** The errors Playwright placed in it, what failed it. */
  errors: TestError[];
}

/**
 * Which test files of the run are finished. Playwright has no file-end hook, and a test
 * ends once per attempt: a file is finished when every test in it has had its last
 * attempt, so its results are final and can be streamed while other files still run.
 */
export class TestFiles {
  private readonly files: TestFile[] = [];
  private readonly byTest = new Map<TestCase, TestFile>();
  private readonly byFileSuite = new Map<Suite, TestFile>();

  constructor(root: Suite) {
    for (const test of root.allTests()) this.track(test);
  }

  /** Every file of the run, in the order Playwright listed them. */
  all(): readonly TestFile[] {
    return this.files;
  }

  /** The file of `test`, once the attempt that just ended leaves it finished; otherwise undefined. */
  attemptEnded(test: TestCase, result: TestResult): TestFile | undefined {
    const file = this.byTest.get(test) ?? this.track(test);
    if (isLastAttempt(test, result)) file.unsettled.delete(test);
    // An earlier attempt may have looked final: a serial group reruns its passed tests too.
    else file.unsettled.add(test);
    return file.unsettled.size === 0 && !file.reported ? file : undefined;
  }

  /** The file `test` belongs to in `project`, if the run has it. */
  find(file: string, project: FullProject | undefined): TestFile | undefined {
    return this.files.find((tracked) => tracked.file === file && sameProject(tracked.project, project));
  }

  private track(test: TestCase): TestFile {
    const fileSuite = fileSuiteOf(test);
    let file = fileSuite ? this.byFileSuite.get(fileSuite) : undefined;
    if (!file) {
      file = {
        file: fileSuite?.location?.file ?? test.location.file,
        project: test.parent.project(),
        tests: [],
        unsettled: new Set(),
        reported: false,
        failedOutsideTests: false,
        errors: [],
      };
      this.files.push(file);
      if (fileSuite) this.byFileSuite.set(fileSuite, file);
    }
    file.tests.push(test);
    file.unsettled.add(test);
    this.byTest.set(test, file);
    return file;
  }
}

/**
 * Whether Playwright will run `test` again after this attempt. It retries an attempt whose
 * status is not the expected one while retries are left; that includes a test skipped
 * because its beforeAll or an earlier test of its serial group failed. An interrupted
 * attempt is never the last word: the run is ending, and its end reports what finished.
 */
export function isLastAttempt(test: TestCase, result: TestResult): boolean {
  if (result.status === 'interrupted') return false;
  return result.retry >= test.retries || result.status === test.expectedStatus;
}

/** Worker errors carry the project object of another layer of Playwright: compare what names a project. */
function sameProject(a: FullProject | undefined, b: FullProject | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.name === b.name && a.testDir === b.testDir);
}

function fileSuiteOf(test: TestCase): Suite | undefined {
  for (let suite: Suite | undefined = test.parent; suite; suite = suite.parent) {
    if (suite.type === 'file') return suite;
  }
  return undefined;
}
