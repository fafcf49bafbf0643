import { detectFramework } from './detect-framework.js';
import { ctrfDuration, mapCtrfTest } from './map-ctrf.js';
import { type MappingContext, mapSuiteFailure, mapTestcase } from './map-junit.js';
import { detectFormat, type ReportFormat } from './open-report.js';
import { readCtrf } from './read-ctrf.js';
import { readJunit } from './read-junit.js';
import type { ReportPaths } from './report-paths.js';
import type { ResultFeeder } from './result-feeder.js';
import { writerRules } from './writer-rules.js';

// One report, read twice: once to check it is whole before anything of it is sent (and to
// find the names that repeat: RepeatFinder), once to send it. Reading twice keeps memory
// flat; holding the results in between would not. Both reads map the same way. A report is
// JUnit XML or CTRF JSON, told by its content (open-report.ts), so one glob may hold both.

/** The framework of a CTRF report whose `results.tool` has no name. */
const CTRF_FRAMEWORK = 'ctrf';

/** What a report holds besides its results, for the lines that tell the user. */
export interface ReportNotes {
  format: ReportFormat;
  /** What the report says wrote it, if it says (CTRF: `results.tool.name`). */
  framework: string | undefined;
  /**
   * Testcases without a `name`, sent as `(unnamed)`, and where the first is: its line
   * (JUnit), its index in `results.tests` (CTRF).
   */
  unnamed: { count: number; firstLine: number | undefined };
  /**
   * Testcases whose time is not a number (of seconds in JUnit, of milliseconds in CTRF), sent
   * with duration 0: where the first one is (as for `unnamed`) and its time as written.
   */
  unreadableTimes: { count: number; firstLine: number | undefined; first: string | undefined };
  /** Characters XML 1.0 forbids, read as spaces. */
  replacedCharacters: number;
}

/**
 * Reads the whole report, maps every testcase and hands it to `feeder`; throws a
 * ReportReadError if it is not a whole JUnit or CTRF report. What was handed over by then is
 * `feeder.count`. The first read hands results to a RepeatFinder, the second towards core.
 */
export async function readReport(
  file: string,
  shownAs: string,
  feeder: ResultFeeder,
  paths: ReportPaths,
): Promise<ReportNotes> {
  const format = await detectFormat(file, shownAs);
  const notes: ReportNotes = {
    format,
    framework: undefined,
    unnamed: { count: 0, firstLine: undefined },
    unreadableTimes: { count: 0, firstLine: undefined, first: undefined },
    replacedCharacters: 0,
  };
  if (format === 'ctrf') {
    notes.framework = CTRF_FRAMEWORK;
    await readCtrfReport(file, shownAs, feeder, notes);
    return notes;
  }
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

/** readReport for a CTRF report: every element of `results.tests` to `feeder`, the notes filled in. */
async function readCtrfReport(
  file: string,
  shownAs: string,
  feeder: ResultFeeder,
  notes: ReportNotes,
): Promise<void> {
  try {
    for await (const events of readCtrf(file, shownAs)) {
      for (const event of events) {
        if (event.kind === 'tool') {
          notes.framework = event.name ?? CTRF_FRAMEWORK;
          continue;
        }
        const { test } = event;
        // As mapCtrfTest reads a name: a string or a number; blank is (unnamed).
        const named =
          typeof test.name === 'number' || (typeof test.name === 'string' && test.name.trim() !== '');
        if (!named) {
          notes.unnamed.count++;
          notes.unnamed.firstLine ??= test.index;
        }
        if (Number.isNaN(ctrfDuration(test.duration))) {
          notes.unreadableTimes.count++;
          notes.unreadableTimes.firstLine ??= test.index;
          notes.unreadableTimes.first ??= JSON.stringify(test.duration);
        }
        feeder.add(mapCtrfTest(test));
      }
    }
  } finally {
    feeder.flush();
  }
}
