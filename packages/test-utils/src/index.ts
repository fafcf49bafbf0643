// Test utilities shared by every package's tests: one place to start a server, to drive
// core directly, and to spawn a real Vitest or Jest run on a fixture project.
export * from './certificates.js';
export * from './cli.js';
export { FRAMEWORKS, type Framework, identities, PASSING_RESULTS } from './frameworks.js';
export * from './node-script.js';
export {
  type ExpectedResult,
  PARITY_REPORTER_OPTIONS,
  PARITY_RESULTS,
  resultsIn,
} from './parity-expected.js';
export * from './proxy.js';
export * from './reporter.js';
export * from './server.js';
export * from './spawn.js';
