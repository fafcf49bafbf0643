// The parts of the events WebdriverIO 9's runner hands a reporter (`reporter.emit(event,
// payload)` in @wdio/runner's BaseReporter) that the reporter reads, as the Mocha, Jasmine and
// Cucumber frameworks send them (test/fixtures/recorded has real ones).

/** A suite, test or hook event's payload. */
export interface WdioRunnable {
  uid?: string;
  title?: string;
  /** The spec file's absolute path. */
  file?: string;
  /** Cucumber: `feature` or `scenario` for a suite; Mocha and Jasmine: `suite:start`, … */
  type?: string;
  /** Milliseconds, on a test's end events. */
  duration?: number;
  error?: { message?: string; stack?: string } | undefined;
  errors?: unknown[];
  /** Mocha, on test:start: which retry under `this.retries` this attempt is (0 on the first). */
  retries?: number;
}

/** runner:start's payload: one worker's spec files and capability. */
export interface WdioRunnerStart {
  cid?: string;
  /** `file://` URLs of the spec files this worker runs. */
  specs?: string[];
  capabilities?: Record<string, unknown>;
  /** The worker's configuration (its session options, or the whole config when the session failed). */
  config?: { specFileRetries?: number };
}

/** runner:end's payload. */
export interface WdioRunnerEnd {
  failures?: number;
  /** The retries of the spec file left after this attempt; -1 on the first attempt (then config.specFileRetries). */
  retries?: number;
  /** Why the session did not start, when it did not. */
  error?: string;
}

/** client:afterCommand's payload: a WebDriver (or BiDi) command and what it answered. */
export interface WdioCommandResult {
  command?: string;
  /** The WebDriver endpoint, `/session/:sessionId/screenshot` (WebDriver classic). */
  endpoint?: string;
  /** Classic: `{ value: <base64 PNG> }`; BiDi's browsingContext.captureScreenshot: `{ data: <base64> }`. */
  result?: { value?: unknown; data?: unknown } | unknown;
}

export type WdioEvent =
  | { name: 'runner:start'; payload: WdioRunnerStart }
  | { name: 'runner:end'; payload: WdioRunnerEnd }
  | { name: string; payload: WdioRunnable };
