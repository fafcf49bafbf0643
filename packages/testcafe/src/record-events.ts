import type { TestCafeBrowser, TestCafeError, TestCafeTestRunInfo } from './testcafe-types.js';

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
  browsers: { alias: string; prettyUserAgent: string; testRunId: string; attempts: number }[];
  /** The errors of each browser's last attempt: TestCafe's verdict is that the test failed there. */
  errors: { testRunId: string; userAgent: string; text: string }[];
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
  };
}

function browserOf(browser: TestCafeBrowser) {
  const attempts = Array.isArray(browser?.quarantineAttemptsTestRunIds)
    ? browser.quarantineAttemptsTestRunIds.length
    : 1;
  return {
    alias: textOf(browser?.alias),
    prettyUserAgent: textOf(browser?.prettyUserAgent),
    testRunId: textOf(browser?.testRunId),
    attempts: Math.max(1, attempts),
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
