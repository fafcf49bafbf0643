/** Outcome of a test as the adapters see it; `statusMap` turns it into what is sent. */
export type CanonicalStatus = 'passed' | 'failed' | 'skipped' | 'todo';

/** One result as the service's spec defines it: exactly these four fields are sent. */
export interface TestResult {
  testSuite: string;
  testCase: string;
  status: string;
  duration: number;
}

/** What an adapter hands to core, before normalization. Loose on purpose: core cleans it. */
export interface RawResult {
  testSuite: unknown;
  testCase: unknown;
  status: CanonicalStatus;
  /** Milliseconds as the framework measured them; anything not finite becomes 0. */
  duration?: unknown;
}

/** Extra context given to `mapResult`. */
export interface ResultInfo {
  /** Absolute path of the test file. */
  file?: string;
  framework: string;
}

export type DurationUnit = 'ms' | 's';

/** Options accepted by both reporters (the table in the README). */
export interface TestrunOptions {
  apiKey?: string;
  baseUrl?: string;
  project?: string;
  tags?: string[];
  runId?: string;
  enabled?: boolean;
  ciTags?: boolean;
  batchSize?: number;
  concurrency?: number;
  flushInterval?: number;
  requestTimeout?: number;
  flushTimeout?: number;
  maxRetries?: number;
  spoolDir?: string;
  failOnError?: boolean;
  debug?: boolean;
  watch?: boolean;
  statusMap?: Partial<Record<CanonicalStatus, string>>;
  durationUnit?: DurationUnit;
  runIdPath?: string;
  allowInsecureHttp?: boolean;
  mapResult?: (result: TestResult, info: ResultInfo) => TestResult | null | undefined;
}

/** What `RunSession.finish()` resolves with. */
export interface RunSummary {
  runId: string | undefined;
  /** Results the service accepted. */
  delivered: number;
  /** Results that were neither delivered nor spooled (spool write failed too). */
  failed: number;
  /** Results written to the spool for `testrun replay`. */
  spooled: number;
  /** HTTP requests sent, retries included. */
  requests: number;
  durationMs: number;
  spoolFile: string | undefined;
  /** One line per distinct problem, already printed once. */
  errors: string[];
}
