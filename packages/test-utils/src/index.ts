// Test utilities shared by every package's tests: one place to start a server, to drive
// core directly, and to spawn a real Vitest or Jest run on a fixture project.
export * from './cli.js';
export * from './framework-report.js';
export {
  FRAMEWORKS,
  type Framework,
  identities,
  OUTSIDE_TEST_CASES,
  type OutsideTestCase,
  PASSING_RESULTS,
} from './frameworks.js';
export {
  type ExpectedResult,
  PARITY_PROJECT_RESULTS,
  PARITY_PROJECTS,
  PARITY_PROJECTS_CONFIG,
  PARITY_REPORTER_OPTIONS,
  PARITY_RESULTS,
  resultsIn,
} from './parity-expected.js';
export * from './proxy.js';
export * from './reporter.js';
export * from './server.js';
export * from './spawn.js';
