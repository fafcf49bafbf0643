import type {
  TestCafeBrowser,
  TestCafeError,
  TestCafeScreenshot,
  TestCafeTestRunInfo,
  TestCafeVideo,
} from './testcafe-types.js';

// TestCafe's reportTestDone as a plain record, taken when it is called: what map-events.ts
// maps. Recorded runs (test/fixtures/recorded/) are these records, so the mapping's tests
// replay what the reporter keeps.

/** One test, done in every browser: as plain data. */
export interface TestDoneRecord {
  name: string;
  fixture: { name: string; path: string };
  skipped: boolean;
  /** TestCafe's duration of the test. */
  durationMs: number | undefined;
  browsers: {
    alias: string;
    prettyUserAgent: string;
    testRunId: string;
    attempts: number;
    /** Every run of the test in this browser: its attempts' test runs, the last one's when not quarantined. */
    testRunIds?: string[];
  }[];
  /** The errors of each browser's last attempt: TestCafe's verdict is that the test failed there. */
  errors: { testRunId: string; userAgent: string; text: string }[];
  /** Screenshots and videos, with the test run (browser and attempt) that made them. */
  files?: { kind: 'screenshot' | 'video'; path: string; testRunId: string; attempt: number | undefined }[];
}

/** The record of a reportTestDone; `format` is TestCafe's formatError, where it gave the plugin one. */
export function recordOf(
  name: unknown,
  info: TestCafeTestRunInfo | undefined,
  format: ((error: unknown) => string) | undefined,
): TestDoneRecord {
  return {
    name: textOf(name),
    fixture: { name: textOf(info?.fixture?.name), path: textOf(info?.fixture?.path) },
    skipped: info?.skipped === true,
    durationMs: typeof info?.durationMs === 'number' ? info.durationMs : undefined,
    browsers: (Array.isArray(info?.browsers) ? info.browsers : []).map(browserOf),
    errors: (Array.isArray(info?.errs) ? info.errs : []).map((error) => errorOf(error, format)),
    files: [
      ...(Array.isArray(info?.screenshots) ? info.screenshots : []).map(screenshotOf),
      ...(Array.isArray(info?.videos) ? info.videos : [])
        .filter((video) => video?.singleFile !== true)
        .map(videoOf),
    ].filter((file) => file.path !== ''),
  };
}

function screenshotOf(screenshot: TestCafeScreenshot) {
  const attempt = screenshot?.quarantineAttempt;
  return {
    kind: 'screenshot' as const,
    path: textOf(screenshot?.screenshotPath),
    testRunId: textOf(screenshot?.testRunId),
    attempt: typeof attempt === 'number' && attempt >= 1 ? attempt : undefined,
  };
}

function videoOf(video: TestCafeVideo) {
  return {
    kind: 'video' as const,
    path: textOf(video?.videoPath),
    testRunId: textOf(video?.testRunId),
    attempt: undefined,
  };
}

function browserOf(browser: TestCafeBrowser) {
  const attempts = Array.isArray(browser?.quarantineAttemptsTestRunIds)
    ? browser.quarantineAttemptsTestRunIds.length
    : 1;
  const testRunIds = Array.isArray(browser?.quarantineAttemptsTestRunIds)
    ? browser.quarantineAttemptsTestRunIds.map(textOf)
    : [textOf(browser?.testRunId)];
  return {
    alias: textOf(browser?.alias),
    prettyUserAgent: textOf(browser?.prettyUserAgent),
    testRunId: textOf(browser?.testRunId),
    attempts: Math.max(1, attempts),
    testRunIds,
  };
}

function errorOf(error: TestCafeError, format: ((error: unknown) => string) | undefined) {
  let text: string | undefined;
  try {
    text = format?.(error);
  } catch {
    // The error as TestCafe keeps it, below.
  }
  return {
    testRunId: textOf(error?.testRunId),
    userAgent: textOf(error?.userAgent),
    text:
      text ?? (typeof error?.errMsg === 'string' ? error.errMsg : `TestCafe error ${textOf(error?.code)}`),
  };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}
