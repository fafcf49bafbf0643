import { TestrunReporter } from './reporter.js';

export { type TestrunPlaywrightOptions, TestrunReporter } from './reporter.js';
export default TestrunReporter;
