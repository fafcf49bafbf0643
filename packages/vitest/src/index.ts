import { TestrunReporter } from './reporter.js';

export { TestrunReporter, type TestrunVitestOptions } from './reporter.js';
export default TestrunReporter;
