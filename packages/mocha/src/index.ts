import { TestrunReporter } from './reporter.js';

export { createReporter, type TestrunMochaOptions, TestrunReporter } from './reporter.js';
export default TestrunReporter;
