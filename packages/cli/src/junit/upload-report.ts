import { detectFramework } from './detect-framework.js';
import { type MappingContext, mapSuiteFailure, mapTestcase } from './map-junit.js';
import { readJunit } from './read-junit.js';
import type { ReportPaths } from './report-paths.js';
import type { ResultFeeder } from './result-feeder.js';
import { writerRules } from './writer-rules.js';

// One report, read twice: once to check it is whole before anything of it is sent (and to
// find the names that repeat: RepeatFinder), once to send it. Reading twice keeps memory
// flat; holding the results in between would not. Both reads map the same way.

/** What a report holds besides its results, for the lines that tell the user. */
export interface ReportNotes {
  /** What the report says wrote it, if it says. */
  framework: string | undefined;
  /** Testcases without a `name` attribute, sent as `(unnamed)`, and the line of the first. */
  unnamed: { count: number; firstLine: number | undefined };
  /** Testcases whose `time` is not a number of seconds, sent with duration 0: the first one's line and time. */
  unreadableTimes: { count: number; firstLine: number | undefined; first: string | undefined };
  /** Characters XML 1.0 forbids, read as spaces. */
  replacedCharacters: number;
}

/**
 * Reads the whole report, maps every testcase and hands it to `feeder`; throws a
 * ReportReadError if it is not a whole JUnit report. What was handed over by then is
 * `feeder.count`. The first read hands results to a RepeatFinder, the second towards core.
 */
export async function readReport(
  file: string,
  shownAs: string,
  feeder: ResultFeeder,
  paths: ReportPaths,
): Promise<ReportNotes> {
  const notes: ReportNotes = {
    framework: undefined,
    unnamed: { count: 0, firstLine: undefined },
    unreadableTimes: { count: 0, firstLine: undefined, first: undefined },
    replacedCharacters: 0,
  };
  let context: MappingContext = { rules: writerRules(undefined), paths };
  try {
    for await (const events of readJunit(file, shownAs)) {
      for (const event of events) {
        if (event.kind === 'testcase') {
          const { testcase } = event;
          if (testcase.name === undefined) {
            notes.unnamed.count++;
            notes.unnamed.firstLine ??= testcase.line;
          }
          const mapped = mapTestcase(testcase, context);
          const duration = mapped.kind === 'file' ? mapped.test.duration : mapped.result.duration;
          if (Number.isNaN(duration)) {
            notes.unreadableTimes.count++;
            notes.unreadableTimes.firstLine ??= testcase.line;
            notes.unreadableTimes.first ??= testcase.time;
          }
          feeder.add(mapped);
        } else if (event.kind === 'suite-failure') {
          const mapped = mapSuiteFailure(event.suite);
          if (mapped) feeder.add(mapped);
        } else if (event.kind === 'head') {
          notes.framework = detectFramework(event.head);
          context = { rules: writerRules(notes.framework), paths };
        } else {
          notes.replacedCharacters = event.count;
        }
      }
    }
  } finally {
    feeder.flush();
  }
  return notes;
}
