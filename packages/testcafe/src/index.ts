import { createReporter } from './reporter.js';

export { createReporter, type TestrunTestCafeOptions, testrunReporter } from './reporter.js';

/** The plugin factory TestCafe loads for `-r testrun`: options from the environment. */
const testrun = createReporter();
export default testrun;
