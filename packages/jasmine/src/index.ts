import { TestrunJasmineReporter } from './reporter.js';

export { type TestrunJasmineOptions, TestrunJasmineReporter } from './reporter.js';
export default TestrunJasmineReporter;
