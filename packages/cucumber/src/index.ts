import { TestrunFormatter } from './formatter.js';

export { createFormatter, TestrunFormatter } from './formatter.js';
export type { TestrunCucumberOptions } from './options.js';
export default TestrunFormatter;
