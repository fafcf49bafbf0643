export {
  backoffDelay,
  isRetryable,
  MAX_RETRY_AFTER_MS,
  parseRetryAfter,
  RETRYABLE_STATUSES,
} from './backoff.js';
export { ciTags, type Shard } from './ci-tags.js';
export {
  type ConfigResolution,
  checkBaseUrl,
  DEFAULTS,
  type ResolvedConfig,
  resolveConfig,
} from './config.js';
export { type CreateRunOutcome, createRun } from './create-run.js';
export { Deadline } from './deadline.js';
export { ConfigError, HttpError, RunIdError, TestrunError } from './errors.js';
export { HttpClient } from './http-client.js';
export { Logger } from './logger.js';
export { toDuration, toResult } from './normalize.js';
export { type ReplaySummary, replaySpool } from './replay.js';
export {
  EMPTY_NAME,
  FILE_FAILURE_CASE,
  MAX_NAME_LENGTH,
  RUN_ERROR_CASE,
  RUN_SUITE,
  TITLE_SEPARATOR,
  toName,
  toRunErrorCase,
  toTestCase,
  toTestSuite,
  withProjectLabel,
} from './result-name.js';
export { extractRunId } from './run-id.js';
export { RunReporter, type RunReporterInit } from './run-reporter.js';
export { RunSession, type RunSessionInit } from './run-session.js';
export { type RunPayload, readSpool, type SpoolFile } from './spool.js';
export { formatSummary } from './summary.js';
export type * from './types.js';
export { CORE_VERSION, userAgent } from './version.js';
