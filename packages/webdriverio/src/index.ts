import TestrunWebdriverioReporter from './reporter.js';

export { TestrunLauncher } from './launcher.js';
export { type TestrunWebdriverioOptions, TestrunWebdriverioReporter } from './reporter.js';
export default TestrunWebdriverioReporter;
