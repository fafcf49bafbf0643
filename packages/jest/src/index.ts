import { TestrunReporter } from './reporter.js';

export { type TestrunJestOptions, TestrunReporter } from './reporter.js';
export default TestrunReporter;
// What require('@testrun/jest') returns (Node's require of an ES module honours this name).
// Jest 24 and older construct what require() returns, without looking for `default`: given
// the class, they reach the reporter's own check, which turns it off with one line instead
// of stopping the whole run with "Reporter is not a constructor".
export { TestrunReporter as 'module.exports' };
