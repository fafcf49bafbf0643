import { detectFramework } from './detect-framework.js';
import { mapSuiteFailure, mapTestcase } from './map-junit.js';
import { readJunit } from './read-junit.js';
import type { ResultFeeder } from './result-feeder.js';

// One report, read twice: once to check it is whole before anything of it is sent, once
// to send it. Reading twice keeps memory flat; holding the results in between would not.

export interface CheckedReport {
  testcases: number;
  /** What the report says wrote it, if it says. */
  framework: string | undefined;
}

/** Reads the whole report without sending anything; throws a JunitReadError if it is not a whole JUnit report. */
export async function checkReport(file: string, shownAs: string): Promise<CheckedReport> {
  let testcases = 0;
  let framework: string | undefined;
  for await (const events of readJunit(file, shownAs)) {
    for (const event of events) {
      if (event.kind === 'testcase') testcases++;
      else if (event.kind === 'head') framework = detectFramework(event.head);
    }
  }
  return { testcases, framework };
}

export interface SentReport {
  /** Testcases without a `name` attribute, sent as `(unnamed)`, and the line of the first. */
  unnamed: { count: number; firstLine: number | undefined };
}

/**
 * Maps every testcase of the report and hands it to `feeder`. Throws a JunitReadError if
 * the report changed since it was checked; what was handed over by then is `feeder.count`.
 */
export async function sendReport(file: string, shownAs: string, feeder: ResultFeeder): Promise<SentReport> {
  const unnamed: SentReport['unnamed'] = { count: 0, firstLine: undefined };
  try {
    for await (const events of readJunit(file, shownAs)) {
      for (const event of events) {
        if (event.kind === 'testcase') {
          if (event.testcase.name === undefined) {
            unnamed.count++;
            unnamed.firstLine ??= event.testcase.line;
          }
          feeder.add(mapTestcase(event.testcase));
        } else if (event.kind === 'suite-failure') {
          const mapped = mapSuiteFailure(event.suite);
          if (mapped) feeder.add(mapped);
        }
      }
    }
  } finally {
    feeder.flush();
  }
  return { unnamed };
}
