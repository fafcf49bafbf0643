import { TestrunReporter } from './reporter.js';

export { TestrunReporter, type TestrunMochaOptions } from './reporter.js';
export default TestrunReporter;
