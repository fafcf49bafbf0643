import { TestrunNewmanReporter } from './reporter.js';

export { REPORTER_NAME, type TestrunNewmanOptions, TestrunNewmanReporter } from './reporter.js';
export default TestrunNewmanReporter;
