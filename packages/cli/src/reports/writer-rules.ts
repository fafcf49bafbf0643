// Where the writers of JUnit XML differ in what a shape means. Only writers known to write
// a shape one way get that reading; every other report is read the plain way, which never
// merges two testcases and never renames a test by its outcome. docs/junit.md has the table.

/** How one writer's reports are read where writers differ. */
export interface WriterRules {
  /**
   * It writes a rerun as the same testcase again in its <testsuite>, the final attempt
   * last: pytest-rerunfailures (and pytest's test that failed, then errored in teardown),
   * Gradle's test-retry plugin without `mergeReruns`. Those are one result with the last
   * outcome, as the reporters count a retried test. Everyone else's repeats are tests of
   * their own (TestNG data providers, jest-each rows, two tests of one title).
   */
  rerunsAsRepeats: boolean;
  /**
   * It writes a file or class that failed outside its tests as one failed testcase named
   * like the file or class (Vitest: a file that did not load; Surefire: a class whose
   * @BeforeAll threw); that is `(file failed to run)`. Elsewhere a testcase named like what
   * holds it is a test like any other, passing or failing (Bazel, Nette Tester).
   */
  namesFileFailuresLikeTheFile: boolean;
}

const PLAIN: WriterRules = { rerunsAsRepeats: false, namesFileFailuresLikeTheFile: false };

const RULES = new Map<string, WriterRules>([
  ['pytest', { ...PLAIN, rerunsAsRepeats: true }],
  ['gradle', { ...PLAIN, rerunsAsRepeats: true }],
  ['vitest', { ...PLAIN, namesFileFailuresLikeTheFile: true }],
  ['surefire', { ...PLAIN, namesFileFailuresLikeTheFile: true }],
]);

/** The rules for a report `detectFramework` named (undefined: it did not say). */
export function writerRules(framework: string | undefined): WriterRules {
  return (framework !== undefined && RULES.get(framework)) || PLAIN;
}
