// The parts of Jasmine's reporter events the reporter reads, as jasmine-core 5, 6 and 7 send
// them. In --parallel mode the main process gets copies the workers serialized: the same
// fields, with each worker's number in front of a spec's and a suite's `id` ("2-spec4") but
// not of `parentSuiteId`.

/** An expectation or error: what a failed spec, suite or run carries. */
export interface JasmineExpectation {
  message?: string;
  stack?: string;
  /** On the run's: where the error came from (`afterAll` at the top level, `load`, `lateError`, …). */
  globalErrorType?: string;
}

/** specDone's and suiteDone's argument; suiteStarted's is the same before the suite ran. */
export interface JasmineResult {
  id?: string;
  description?: string;
  fullName?: string;
  /** The suite holding it; null at the top level. */
  parentSuiteId?: string | null;
  /** The spec file that declared it (jasmine-core 5 on). */
  filename?: string;
  /** Spec: passed, failed, pending (xit, pending(), no function), excluded (fit elsewhere, --filter) or, from Jasmine 7, notApplicable. Suite: passed, failed, pending. */
  status?: string;
  duration?: number | null;
  failedExpectations?: JasmineExpectation[];
}

/** jasmineDone's argument. */
export interface JasmineDoneInfo {
  overallStatus?: string;
  /** Why Jasmine calls the run `incomplete` (exit code 2): `fit() or fdescribe() was found`, `No specs found`. */
  incompleteReason?: string;
  /** Errors of no spec or suite: a top-level afterAll, a late error; in parallel mode a spec file that failed to load. */
  failedExpectations?: JasmineExpectation[];
}

/** What Jasmine calls on a reporter; it awaits a promise one returns. */
export interface JasmineReporter {
  jasmineStarted?(info: unknown): void | Promise<void>;
  suiteStarted?(result: JasmineResult): void | Promise<void>;
  specDone?(result: JasmineResult): void | Promise<void>;
  suiteDone?(result: JasmineResult): void | Promise<void>;
  jasmineDone?(info: JasmineDoneInfo): void | Promise<void>;
}
