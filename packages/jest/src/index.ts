import { TestrunReporter } from './reporter.js';

export { type TestrunJestOptions, TestrunReporter } from './reporter.js';
export default TestrunReporter;
