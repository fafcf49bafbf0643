// Test utilities shared by every package's tests: one place to start a server, to drive
// core directly, and to spawn a real Vitest, Jest, Playwright, Mocha or node:test run on a fixture project.

export * from './cancel.js';
export * from './certificates.js';
export * from './cli.js';
export * from './closing-relay.js';
export * from './cucumber.js';
export * from './doubles.js';
export * from './environment.js';
export * from './fixtures.js';
export * from './framework-report.js';
export {
  FRAMEWORKS,
  type Framework,
  type FrameworkFixtures,
  frameworksHere,
  identities,
  OUTSIDE_TEST_CASES,
  type OutsideTestCase,
  PASSING_RESULTS,
  VITEST_AND_JEST,
} from './frameworks.js';
export * from './jasmine.js';
export { PYTEST_RESULTS, SUREFIRE_RESULTS } from './junit-expected.js';
export * from './legs.js';
export * from './newman.js';
export * from './node-script.js';
export * from './once-per-run.js';
export * from './packed.js';
export {
  type ExpectedResult,
  LOAD_ERROR_FILES,
  MOCHA_PARALLEL_ONLY_FILES,
  MOCHA_PARITY_RESULTS,
  NODE_TEST_FILES_RESULTS,
  NODE_TEST_PARITY_RESULTS,
  PARITY_PROJECT_RESULTS,
  PARITY_PROJECTS,
  PARITY_PROJECTS_CONFIG,
  PARITY_REPORTER_OPTIONS,
  PARITY_RESULTS,
  PLAYWRIGHT_PARITY_RESULTS,
  resultsIn,
} from './parity-expected.js';
export * from './playwright.js';
export * from './postgres.js';
export * from './proc-stat.js';
export * from './process.js';
export * from './proxy.js';
export * from './reporter.js';
export * from './run-framework.js';
export * from './run-limiter.js';
export * from './server.js';
export * from './small-disk.js';
export * from './store-engines.js';
export * from './tap.js';
export * from './temp-dir.js';
export * from './testcafe.js';
export * from './timed-suite.js';
export * from './transports.js';
export * from './upload.js';
export * from './watch.js';
export * from './webdriverio.js';
