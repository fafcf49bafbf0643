/** Outcome of a test as the adapters see it; `statusMap` turns it into what is sent. */
export type CanonicalStatus = 'passed' | 'failed' | 'skipped' | 'todo';

/** A run as the service's spec defines it (docs/service-api.md#what-a-spec-only-service-gets): what
 * create-run sends. */
export interface RunPayload {
  project: string;
  framework: string;
  tags: string[];
}

/** One result as the service's spec defines it: exactly these four fields are sent. */
export interface TestResult {
  testSuite: string;
  testCase: string;
  status: string;
  duration: number;
  /**
   * Why a failed test failed, or how many attempts a passed test needed when it needed more
   * than one: sent only to a service that accepts the `failure-details` extension
   * (docs/design/failure-details.md); stripped for every other service.
   */
  details?: FailureDetails;
  /**
   * The files the runner attached to the test (screenshots, traces, videos, logs), by content
   * hash: sent only to a service that announces the `attachments` extension (docs/design/attachments.md), whose bytes go by `PUT …/attachments/{sha256}`; stripped for every other service.
   */
  attachments?: AttachmentRef[];
}

/** One file of a result as the `attachments` extension names it: the bytes go apart, by their hash. */
export interface AttachmentRef {
  /** What the runner called it (`screenshot`, `trace`, `video`, a file name), at most 256 characters. */
  name: string;
  /** Its media type, `image/png`; `application/octet-stream` when nobody said. */
  contentType: string;
  /** Its size in bytes. */
  size: number;
  /** Lower-case hex SHA-256 of its bytes: where it is uploaded, and what makes a file sent once. */
  sha256: string;
  /** Which attempt of the test made it (1 for the first), when the runner retries and says so. */
  attempt?: number;
}

/**
 * A file a runner attached to a test, as an adapter hands it to core: on disk (`path`) or in
 * memory (`body`). Loose on purpose: core checks it, hashes it and uploads it only where the
 * run's service takes attachments and the `attachments` option wants it.
 */
export interface RawAttachment {
  /** What the runner called it: `screenshot`, `trace`, `video`, `stdout`, a file name. */
  name?: unknown;
  /** Its media type, if the runner said; otherwise guessed from the file name's extension. */
  contentType?: unknown;
  /** An absolute path of the file. */
  path?: unknown;
  /**
   * The bytes themselves: a Buffer or Uint8Array, or text (UTF-8); or a function that makes
   * them, called only if the file is sent (a test's output, made into its tail only then).
   */
  body?: unknown;
  /** Which attempt made it, 1 for the first. */
  attempt?: unknown;
}

/** The `failure-details` extension of a result: every field optional, sizes bounded by core. */
export interface FailureDetails {
  /** The error's message, ANSI colours removed, at most 4 KB. */
  message?: string;
  /** The error's stack, at most 16 KB. */
  stack?: string;
  /** Where it failed: `file:line[:column]`, the file relative to the root like testSuite. */
  location?: string;
  /**
   * How many times the test ran in this result (1 + retries). On a failed result, with the rest; on
   * a passed result it is the only field, and only there when it is 2 or more: the runner retried
   * the test and it passed on that attempt (a flaky test,
   * docs/design/failure-details.md#a-pass-on-a-retry).
   */
  attempts?: number;
}

/**
 * What a runner says about a failure, as an adapter hands it over: core shapes it into
 * FailureDetails (failure-details.ts) so the adapters stay thin.
 */
export interface RawFailure {
  /** The errors the runner reported, first first: Error objects, error-like objects, or text. */
  errors?: readonly unknown[];
  /** Where it failed, when the runner says so; otherwise core looks for the test file in the stack. */
  location?: { file?: unknown; line?: unknown; column?: unknown };
  /** Where the test is declared: the location when neither the runner nor the stack says where it failed. */
  declaredAt?: { file?: unknown; line?: unknown; column?: unknown };
  /** How many times the test ran (1 + retries). */
  attempts?: unknown;
}

/** A result already named, before normalization. Loose on purpose: core cleans it. */
export interface RawResult {
  testSuite: unknown;
  testCase: unknown;
  status: CanonicalStatus;
  /** Milliseconds as the framework measured them; anything not finite becomes 0. */
  duration?: unknown;
  /** Why it failed, as the runner said; shaped by core (failure-details.ts), kept only on a failed result. */
  failure?: RawFailure | undefined;
  /**
   * How many times the test ran (1 + retries), as the runner said: on a passed result of 2 or
   * more, core sends `details: { attempts }` (passed on a retry). A failed result's attempts
   * are `failure.attempts`.
   */
  attempts?: unknown;
  /** Files the runner attached to the test (all its attempts'), kept only as the `attachments` option says. */
  attachments?: readonly RawAttachment[] | undefined;
}

/** The framework's project a file ran in: a Vitest or Playwright project, a Jest project. */
export interface FrameworkProject {
  /** Vitest and Playwright `name`, Jest `displayName`. */
  name?: string;
  /** The project's root directory (Vitest `root`, Jest `rootDir`, Playwright `testDir`). */
  root?: string;
}

/** One test as an adapter sees it; core names it (see result-name.ts) and cleans it. */
export interface RawTest {
  /** The describe titles, outermost first, then the test's own title. */
  titles: readonly unknown[];
  status: CanonicalStatus;
  /** Milliseconds as the framework measured them; anything not finite becomes 0. */
  duration?: unknown;
  /** Why it failed, as the runner said: only read when status is failed. */
  failure?: RawFailure | undefined;
  /** How many times it ran (1 + retries): only read when status is passed (see RawResult.attempts). */
  attempts?: unknown;
  /** Files the runner attached to it: screenshots, traces, videos, its output's last 64 KB (`outputTail`). */
  attachments?: readonly RawAttachment[] | undefined;
}

/** Everything one test file produced, handed to core when the file ends. */
export interface FileReport {
  /** Absolute path of the test file. */
  file: string;
  project?: FrameworkProject;
  tests: readonly RawTest[];
  /**
   * Set when the framework runs the file's tests a second way in the same project, so
   * that their results are told apart: 'typecheck' for Vitest's type checking of a file
   * that also runs as usual. testSuite then ends with ` (typecheck)`.
   */
  variant?: string;
  /**
   * The file failed outside any test: it did not load, a describe body or afterAll threw,
   * its environment or worker did not start. Core adds a `(file failed to run)` result
   * unless a test of the file already failed.
   */
  failedOutsideTests?: boolean;
  /** With `failedOutsideTests`: what the framework said about it, given to the `(file failed to run)` result. */
  failure?: RawFailure | undefined;
}

/** Extra context given to `mapResult`. */
export interface ResultInfo {
  /** Absolute path of the test file; absent for a result that stands for the whole run. */
  file?: string;
  /** Name of the framework's project the test ran in, when it has one. */
  project?: string;
  framework: string;
}

/**
 * When testSuite starts with the framework project's name, `[name] src/a.test.ts`:
 * 'auto' when the framework's configuration defines more than one project (counted before
 * any `--project`/`--selectProjects` filter, so a filtered run names results as the full
 * run does); 'always' for every result of a named project; 'never' not at all.
 */
export type ProjectLabel = 'auto' | 'always' | 'never';

export type DurationUnit = 'ms' | 's';

export type FailureDetailsMode = 'auto' | 'always' | 'never';

/**
 * Which tests' files are sent: `'failed'` (a failed test, and one that passed on a retry: its
 * failed attempts' files), `'all'`, `'none'`.
 */
export type AttachmentsMode = 'failed' | 'all' | 'none';

/** Options accepted by both reporters (the table in the README). */
export interface TestrunOptions {
  apiKey?: string;
  baseUrl?: string;
  project?: string;
  tags?: string[];
  runId?: string;
  /** The create-run Idempotency-Key: reporters given the same key (and the same run) name one run, live or replayed. */
  runKey?: string;
  /** The shard this process runs, `2/4`, when the runner does not say (it runs files `testrun plan` printed). */
  shard?: string;
  /** What the shards of one build share their plan by; by default the CI build (docs/sharding.md). */
  planKey?: string;
  enabled?: boolean;
  ciTags?: boolean;
  batchSize?: number;
  concurrency?: number;
  flushInterval?: number;
  requestTimeout?: number;
  flushTimeout?: number;
  maxRetries?: number;
  /**
   * Complete the run once every batch is delivered: `'auto'` (the default) where create-run's
   * answer announced `complete-run`; `true` for `PATCH /api/v1/runs/{runId}` always; the
   * request's form; `false` never.
   */
  completeRun?: 'auto' | boolean | { method?: string; path?: string; body?: unknown };
  /**
   * Where the process that ends the run appends a CI summary in Markdown: a file's path
   * (relative to the working directory), or `false` for none. Default: `$GITHUB_STEP_SUMMARY`
   * where GitHub Actions sets it, else none.
   */
  summary?: string | false;
  spoolDir?: string;
  failOnError?: boolean;
  debug?: boolean;
  watch?: boolean;
  statusMap?: Partial<Record<CanonicalStatus, string>>;
  durationUnit?: DurationUnit;
  runIdPath?: string;
  allowInsecureHttp?: boolean;
  /** A CA to trust besides Node's: a PEM file's path, or the PEM text. */
  ca?: string;
  /** Path of the client certificate (PEM) for mutual TLS; with `clientKey`. */
  clientCert?: string;
  /** Path of the client certificate's private key (unencrypted PEM). */
  clientKey?: string;
  /** `[project] ` before testSuite: 'auto' (default: when the configuration has several projects), 'always', 'never'. */
  projectLabel?: ProjectLabel;
  /**
   * Send why a test failed (message, stack, location, attempts), and how many attempts a test
   * that passed on a retry needed: 'auto' (default) when the
   * service's create-run answer announces the `failure-details` extension; 'always' also into
   * a shared run (`runId`) whose service accepts it; 'never' sends the spec's four fields only.
   */
  failureDetails?: FailureDetailsMode;
  /**
   * Which tests' attached files (screenshots, traces, videos, logs) are uploaded, where the
   * service announces the `attachments` extension: `'failed'` (default), `'all'`, `'none'`.
   */
  attachments?: AttachmentsMode;
  /** A file larger than this is not sent (one line says so): bytes, or text such as `'25MB'`. Default 100 MB. */
  maxAttachmentSize?: number | string;
  /** Renames (return a result) or drops (return null) each result before it is sent; `info` says where it came from. */
  mapResult?: (result: TestResult, info: ResultInfo) => TestResult | null | undefined;
}

/** How a run's delivery ended: what `RunSession.finish()` and `RunReporter.endRun()` resolve with. */
export interface DeliverySummary {
  runId: string | undefined;
  /** Results the service accepted. */
  delivered: number;
  /** Results that were neither delivered nor spooled (spool write failed too). */
  failed: number;
  /** Results written to the spool for `testrun replay`. */
  spooled: number;
  /**
   * Results the service refused alone while it took others of the run (400): each named
   * in a line (the first ten), neither delivered nor spooled, since sending again would be refused again.
   */
  refused: number;
  /** HTTP requests sent, retries included. */
  requests: number;
  durationMs: number;
  spoolFile: string | undefined;
  /** Why sending stopped before the deadline, when it did: every further request would have failed the same way. */
  stopped: 'refused-key' | 'tls' | undefined;
  /** The run's page, when the service says it has one (a `Link` header on create-run). */
  pageUrl: string | undefined;
  /**
   * With `completeRun`: the status the run ended with, and whether the request completing it
   * was sent, spooled for `testrun replay`, or refused by the service (one line says why).
   */
  runEnd?:
    | { status: 'completed' | 'failed' | 'interrupted'; state: 'sent' | 'spooled' | 'refused' }
    | undefined;
  /** How the run ended by what this process knows of it (run-end/end-run.ts), told to the service or not. */
  verdict?: 'completed' | 'failed' | 'interrupted' | undefined;
  /**
   * What quarantine found of the run's failures (docs/design/quarantine.md), where its service
   * announced quarantine and a test failed. `passes`: every failure was a quarantined test's,
   * nothing else failed, and the runner takes its verdict from the reporter
   * (`RunReporterInit.decidesVerdict`): the adapter passes the run.
   */
  quarantine?: { passes: boolean; quarantined: number; failures: number } | undefined;
  /** One line per distinct problem, already printed once. */
  errors: string[];
  /** The files of the run's results (`attachments`), when it had any to send. */
  files?: FileDeliverySummary | undefined;
}

/** What became of a run's attached files. */
export interface FileDeliverySummary {
  /** Files the service has now (sent by this run, or already there). */
  sent: number;
  bytes: number;
  /** Files spooled for `testrun replay`. */
  spooled: number;
  /** Files not sent for good: too large, refused by the service, gone or unreadable (one line each). */
  skipped: number;
}

/**
 * What a runner says of its run beside the results (an adapter hands it to `endRun`): the run
 * failed where no result says so (a failed coverage threshold, an error outside every test),
 * or was interrupted (Vitest's and Playwright's own verdicts). The run's end says so
 * (`completeRun`), and a failed run always holds a failed result that says why
 * (results/runner-verdict.ts).
 */
export interface RunnerVerdict {
  failed?: boolean;
  interrupted?: boolean;
  /**
   * Why the runner failed the run outside its tests, as far as the adapter knows: the runner's
   * own error (TestCafe's browser that disconnected), or what the adapter saw (fewer tests
   * reported than the runner counted, `testsNotReported`). Each becomes a failed `(run)`
   * result; given, the run is failed.
   */
  why?: readonly unknown[];
  /**
   * The adapter can tell that the runner fails the run, if it does, for its failed tests
   * alone: nothing it knows of beside them fails it (a coverage threshold, a focused test,
   * `--max-failures` reached, a flaky test the runner fails on). Quarantine passes a run only
   * where this is true (docs/design/quarantine.md); unset is a doubt, and the runner's verdict stands.
   */
  failedByTestsAlone?: boolean;
  /** Why the adapter cannot say `failedByTestsAlone`, when it knows: said in the quarantine line. */
  notTestsAlone?: string;
}

/**
 * Results sent in one request, with the Idempotency-Key every attempt of that body carries.
 * The body is serialized once, when the batch is made: it is what waits in the overflow,
 * goes out on every attempt, and is written to the spool (bench/README.md, finding 5).
 */
export interface Batch {
  idempotencyKey: string;
  /** How many results `body` holds. */
  count: number;
  /** `{"results":[…]}`, the request body, with each failed result's `details` when it has some. */
  body: string;
  /** Some result of `body` holds `details`: a service that does not accept them gets the body without (deliver-batch.ts). */
  withDetails: boolean;
  /** Some result of `body` holds `attachments`: likewise, sent only where the run takes them. */
  withAttachments?: boolean;
}
