import { createReporter } from './reporter.js';

export { createReporter, type NodeTestReporter, type TestrunNodeTestOptions } from './reporter.js';

/** `--test-reporter=@testrun/node-test`: the reporter with its options from the environment. */
export default createReporter();
