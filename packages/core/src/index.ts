// What the adapters, the CLI and users build on. Everything else in src/ is internal.

export type { CreateRunOutcome } from './delivery/create-run.js';
export type { Deadline } from './delivery/deadline.js';
export type { SendOutcome } from './delivery/send-with-retries.js';
export { openService, type Service, type ServiceInit } from './delivery/service.js';
export { requestService, type ServiceRequest } from './delivery/service-request.js';
export {
  ConfigError,
  type ErrorCode,
  HttpError,
  NetworkError,
  RequestsRefusedError,
  ResultRefusedError,
  RunIdError,
  TestrunError,
  TlsError,
} from './errors.js';
export {
  ATTACHMENTS_EXTENSION,
  type AttachmentLimits,
  COMPLETE_RUN_EXTENSION,
  type Extension,
  FAILURE_DETAILS_EXTENSION,
  formatRunHandle,
  KNOWN_EXTENSIONS,
  parseRunHandle,
  QUARANTINE_EXTENSION,
  READ_RUNS_EXTENSION,
  type RunHandle,
} from './extensions.js';
export { guardEndHook, guardHook, line, lineOnce } from './hooks.js';
export type { HttpClient, HttpResponse } from './http/client.js';
export type { Transport, TransportRequest, TransportResponse } from './http/transport.js';
export { ciTags, type Shard } from './options/ci-tags.js';
export {
  type CompleteRunChoice,
  type CompleteRunRequest,
  DEFAULT_COMPLETE_RUN,
  RUN_END_STATUSES,
  type RunEndStatus,
} from './options/complete-run-request.js';
export { type ConfigResolution, type ResolvedConfig, resolveConfig, sizeInBytes } from './options/config.js';
export { nearestName, unknownOptionMessage } from './options/option-names.js';
export { OPTION_SPECS, type OptionSpec } from './options/option-specs.js';
export { optionFromText } from './options/option-text.js';
export { planKeyProblem } from './options/plan-key.js';
export { checkBaseUrl } from './options/service-address.js';
export { parseShard } from './options/shard-spec.js';
export { formatSize } from './options/size-text.js';
export { Logger } from './output/logger.js';
export { countOf, formatCount } from './output/summary.js';
export { FAILURE_DETAIL_LIMITS, toFailureDetails } from './results/failure-details.js';
export { fileNamedFirst } from './results/named-file.js';
export { isPlausibleDuration, MAX_DURATION_MS } from './results/normalize.js';
export { OUTPUT_TAIL_BYTES, OutputTail, outputAttachments } from './results/output-tail.js';
export {
  EMPTY_NAME,
  FILE_FAILURE_CASE,
  RUN_ERROR_CASE,
  RUN_SUITE,
  TITLE_SEPARATOR,
} from './results/result-name.js';
export { testsNotReported } from './results/runner-verdict.js';
export {
  type EndRunInit,
  type EndRunOutcome,
  endRequest,
  endRun,
  endsItsRun,
  type PlannedEnd,
  type RunEndOutcome,
  type RunEvidence,
  type RunVerdict,
  runVerdict,
  sendRunEnd,
} from './run-end/end-run.js';
export { loadQuarantine } from './run-end/quarantine-hand-off.js';
export {
  type GatheredRun,
  type GatherInit,
  gatherRun,
  loadSummary,
  SUMMARY_PARTS_VAR,
  type SummaryRun,
  writeRunSummary,
} from './run-end/summary-hand-off.js';
export { RunReporter, type RunReporterInit } from './run-reporter.js';
export { reusedRunKeyLine } from './run-session.js';
export { runnerVersion } from './runner-version.js';
export { DEFAULT_REPLAY_TIMEOUT_MS, type ReplaySummary, replaySpool } from './spool/replay.js';
export { startDir } from './start-dir.js';
export type * from './types.js';
export { CORE_VERSION, userAgent } from './version.js';
