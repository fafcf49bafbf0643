// The runs both server figures store (figure 9's data file, figure 10's ingest over HTTP):
// 10 projects, 3 frameworks, a tag on every 7th run; each run 20 suites × 5 tests, about 1 %
// failed, some skipped, and one test per project that fails in every third run (so the flaky
// page has work to do). Deterministic: run i is the same every time.

export const RESULTS_PER_RUN = 100;
export const PROJECTS = 10;
const SUITES = 20;

/** What create-run is sent for run i. */
export function runBody(i) {
  const project = i % PROJECTS;
  return {
    project: `project-${project}`,
    framework: ['vitest', 'jest', 'playwright'][project % 3],
    tags: i % 7 === 0 ? ['branch:main', 'nightly'] : ['branch:main'],
  };
}

/** Run i's results. */
export function resultsOf(i) {
  const results = [];
  for (let suite = 0; suite < SUITES; suite++) {
    for (let test = 0; test < RESULTS_PER_RUN / SUITES; test++) {
      let status = test === 4 && suite % 5 === 0 ? 'skipped' : 'passed';
      if ((i * 31 + suite * 7 + test) % 97 === 0) status = 'failed';
      if (suite === 0 && test === 0) status = Math.floor(i / PROJECTS) % 3 === 0 ? 'failed' : 'passed';
      results.push({
        testSuite: `src/module-${suite}.test.ts`,
        testCase: `module ${suite} > case ${test}`,
        status,
        duration: 1 + ((i + suite * 5 + test) % 50) * 3.7,
      });
    }
  }
  return results;
}
