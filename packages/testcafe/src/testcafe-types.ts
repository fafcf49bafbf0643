// The parts of TestCafe's reporter plugin API this reporter reads (testcafe/lib/reporter): a
// plugin is an object of report* methods, which TestCafe awaits, made by a factory that
// TestCafe `require()`s as `testcafe-reporter-<name>` or is given (`runner.reporter(factory)`).
// TestCafe adds helpers to the object before it calls it, `formatError` among them.

/** One browser a test ran in, as `reportTestDone`'s testRunInfo.browsers lists it. */
export interface TestCafeBrowser {
  /** The browser as the configuration names it: `chromium:headless --no-sandbox`. */
  alias?: unknown;
  prettyUserAgent?: unknown;
  /** The test's last run in this browser. */
  testRunId?: unknown;
  /** Every run of the test in this browser, in quarantine mode: its attempts. */
  quarantineAttemptsTestRunIds?: unknown;
}

/** An error of a test: TestCafe's TestRunErrorFormattableAdapter. */
export interface TestCafeError {
  testRunId?: unknown;
  userAgent?: unknown;
  code?: unknown;
  errMsg?: unknown;
}

/** A screenshot TestCafe took (`takeScreenshot`, `takeOnFails`). */
export interface TestCafeScreenshot {
  testRunId?: unknown;
  screenshotPath?: unknown;
  userAgent?: unknown;
  /** 1 for the first attempt in quarantine mode. */
  quarantineAttempt?: unknown;
  takenOnFail?: unknown;
}

/** A video TestCafe recorded (`--video`). */
export interface TestCafeVideo {
  testRunId?: unknown;
  videoPath?: unknown;
  /** One video for the whole task (`singleFile`): not one test's. */
  singleFile?: unknown;
}

export interface TestCafeTestRunInfo {
  errs?: TestCafeError[];
  screenshots?: TestCafeScreenshot[];
  videos?: TestCafeVideo[];
  durationMs?: unknown;
  skipped?: unknown;
  browsers?: TestCafeBrowser[];
  fixture?: { name?: unknown; path?: unknown };
}

/** The configuration `reportTaskStart` gets in its task properties: the browsers it runs in. */
export interface TestCafeTaskProperties {
  configuration?: { browsers?: unknown[]; stopOnFirstFail?: unknown };
}

/** What TestCafe adds to a plugin before it calls it. */
export interface TestCafePluginHelpers {
  formatError?: (error: unknown, prefix?: string) => string;
}

export interface TestCafeReporterPlugin {
  noColors?: boolean;
  reportTaskStart(
    startTime: unknown,
    userAgents: unknown,
    testCount: unknown,
    taskStructure?: unknown,
    taskProperties?: TestCafeTaskProperties,
  ): Promise<void>;
  reportFixtureStart(name: unknown, path: unknown, meta: unknown): Promise<void>;
  reportTestDone(name: unknown, testRunInfo: TestCafeTestRunInfo, meta?: unknown): Promise<void>;
  reportTaskDone(endTime: unknown, passed: unknown, warnings: unknown, result?: unknown): Promise<void>;
}
