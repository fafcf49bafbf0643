// What the adapters, the CLI and users build on. Everything else in src/ is internal.
export { ciTags, type Shard } from './ci-tags.js';
export { type ConfigResolution, type ResolvedConfig, resolveConfig } from './config.js';
export { type CreateRunOutcome, createRun } from './create-run.js';
export { Deadline } from './deadline.js';
export {
  ConfigError,
  type ErrorCode,
  HttpError,
  NetworkError,
  RunIdError,
  TestrunError,
} from './errors.js';
export { HttpClient } from './http-client.js';
export { Logger } from './logger.js';
export { OPTION_SPECS, type OptionSpec } from './option-specs.js';
export { DEFAULT_REPLAY_TIMEOUT_MS, type ReplaySummary, replaySpool } from './replay.js';
export { FILE_FAILURE_CASE, RUN_ERROR_CASE, RUN_SUITE, TITLE_SEPARATOR } from './result-name.js';
export { RunReporter, type RunReporterInit } from './run-reporter.js';
export { checkBaseUrl } from './service-address.js';
export { countOf, formatCount } from './summary.js';
export type * from './types.js';
export { CORE_VERSION, userAgent } from './version.js';
