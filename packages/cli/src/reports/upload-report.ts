import { countOf, formatCount, isPlausibleDuration } from '@testrun/core';
import { detectFramework } from './detect-framework.js';
import { ctrfDuration, mapCtrfTest } from './map-ctrf.js';
import { type MappingContext, mapSuiteFailure, mapTestcase } from './map-junit.js';
import { mapTapIncomplete, mapTapPoint } from './map-tap.js';
import { openReport, type ReportFormat } from './open-report.js';
import { readCtrf } from './read-ctrf.js';
import { readJunit } from './read-junit.js';
import { MAX_TAP_DIAGNOSTICS, MAX_TAP_LINE, readTap } from './read-tap.js';
import type { ReportPaths } from './report-paths.js';
import type { ResultFeeder } from './result-feeder.js';
import { writerRules } from './writer-rules.js';

// One report, read twice: once to check it is whole before anything of it is sent (and to
// find the names that repeat: RepeatFinder), once to send it. Reading twice keeps memory
// flat; holding the results in between would not. Both reads map the same way. A report is
// JUnit XML, CTRF JSON or TAP, told by its content when it is opened (open-report.ts), so one
// glob may hold all three; each format has one reader of the same shape (FormatReader).

/** The framework of a CTRF report whose `results.tool` has no name, and of a TAP report (TAP names no writer). */
const CTRF_FRAMEWORK = 'ctrf';
const TAP_FRAMEWORK = 'tap';

/** What a report holds besides its results, for the lines that tell the user. */
export interface ReportNotes {
  format: ReportFormat;
  /** What the report says wrote it, if it says (CTRF: `results.tool.name`). */
  framework: string | undefined;
  /**
   * Testcases without a `name`, sent as `(unnamed)`, and where the first is: its line
   * (JUnit), its index in `results.tests` (CTRF), its number among the stream's test points (TAP).
   */
  unnamed: { count: number; firstLine: number | undefined };
  /**
   * Testcases whose time is not a number (of seconds in JUnit, of milliseconds in CTRF), sent
   * with duration 0: where the first one is (as for `unnamed`) and its time as written.
   */
  unreadableTimes: { count: number; firstLine: number | undefined; first: string | undefined };
  /** Characters XML 1.0 forbids, read as spaces. */
  replacedCharacters: number;
  /** TAP: why the stream's tests did not all run (`Bail out!`, its plan), if they did not. */
  incomplete: string | undefined;
  /** TAP: lines longer than MAX_TAP_LINE, read as their start: how many, and the first one's number. */
  longLines: { count: number; firstLine: number } | undefined;
  /** TAP: YAML diagnostics blocks longer than MAX_TAP_DIAGNOSTICS, dropped: how many, and the first one's line. */
  longDiagnostics: { count: number; firstLine: number } | undefined;
}

/** How a report is read: the upload's settings, and the report's name in messages. */
export interface ReadContext {
  shownAs: string;
  /** Where `file` attributes and file paths become paths of this machine. */
  paths: ReportPaths;
  /** The report's folder (the current directory for standard input): where a relative attachment path is looked for second. */
  reportDir: string;
  /** The testSuite of results a report names no file for (TAP): `--suite`, else the report's name. */
  suite: string;
  /** `--format`: read as this format, whatever the content looks like. */
  format?: ReportFormat | undefined;
}

/** Counts of the send that the note lines report: reruns merged, repeats renamed, and the writer the check found. */
export interface NoteCounts {
  rerun: number;
  renamed: number;
  writer: string | undefined;
}

/** One format's reader: every format is read and reported on through this shape. */
interface FormatReader {
  /** Reads the whole report, mapping each result and handing it to `feeder`, and fills `notes`; throws a ReportReadError. */
  read(
    chunks: AsyncIterable<Buffer>,
    context: ReadContext,
    feeder: ResultFeeder,
    notes: ReportNotes,
  ): Promise<void>;
  /** One line for each thing about a sent report that the user should know, naming the report. */
  noteLines(shownAs: string, notes: ReportNotes, counts: NoteCounts): string[];
}

/**
 * Reads the whole report, maps every result and hands it to `feeder`; throws a
 * ReportReadError if it is not a whole report of its format. What was handed over by then is
 * `feeder.count`. The first read hands results to a RepeatFinder, the second towards core.
 */
export async function readReport(
  file: string,
  context: ReadContext,
  feeder: ResultFeeder,
): Promise<ReportNotes> {
  const report = await openReport(file, context.shownAs, context.format);
  const notes: ReportNotes = {
    format: report.format,
    framework: undefined,
    unnamed: { count: 0, firstLine: undefined },
    unreadableTimes: { count: 0, firstLine: undefined, first: undefined },
    replacedCharacters: 0,
    incomplete: undefined,
    longLines: undefined,
    longDiagnostics: undefined,
  };
  try {
    await READERS[report.format].read(report.chunks, context, feeder, notes);
  } finally {
    report.close();
    feeder.flush();
  }
  return notes;
}

/** One line for each thing about a sent report that the user should know, naming the report. */
export function noteLines(shownAs: string, notes: ReportNotes, counts: NoteCounts): string[] {
  return READERS[notes.format].noteLines(shownAs, notes, counts);
}

const junitReader: FormatReader = {
  async read(chunks, { shownAs, paths, reportDir }, feeder, notes) {
    let context: MappingContext = { rules: writerRules(undefined), paths, reportDir };
    for await (const events of readJunit(chunks, shownAs)) {
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
          context = { rules: writerRules(notes.framework), paths, reportDir };
        } else {
          notes.replacedCharacters = event.count;
        }
      }
    }
  },

  noteLines(shownAs, { unnamed, unreadableTimes, replacedCharacters }, { rerun, renamed, writer }) {
    const lines: string[] = [];
    if (replacedCharacters > 0) {
      lines.push(
        `${shownAs}: ${countOf(replacedCharacters, 'character')} that XML 1.0 does not allow (control characters copied from test output) read as spaces; the report is read anyway.`,
      );
    }
    if (unnamed.count > 0) {
      lines.push(
        `${shownAs}:${unnamed.firstLine}: ${countOf(unnamed.count, 'testcase has', 'testcases have')} no name attribute; sent as (unnamed).`,
      );
    }
    if (unreadableTimes.count > 0) {
      lines.push(
        `${shownAs}:${unreadableTimes.firstLine}: ${countOf(unreadableTimes.count, 'testcase has a time that is', 'testcases have a time that is')} not a number of seconds (time="${unreadableTimes.first}"); sent with duration 0.`,
      );
    }
    if (rerun > 0) {
      lines.push(
        `${shownAs}: ${countOf(rerun, 'testcase repeats an earlier one of its suite', 'testcases repeat an earlier one of their suite')}, as ${writer} writes a rerun; each test is sent once, with its last outcome.`,
      );
    }
    if (renamed > 0) {
      lines.push(
        `${shownAs}: ${countOf(renamed, 'testcase repeats', 'testcases repeat')} the name of an earlier one without being a rerun; each is sent as a result of its own, with (2), (3)… after its name.`,
      );
    }
    return lines;
  },
};

const ctrfReader: FormatReader = {
  async read(chunks, { shownAs, reportDir }, feeder, notes) {
    notes.framework = CTRF_FRAMEWORK;
    for await (const events of readCtrf(chunks, shownAs)) {
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
        feeder.add(mapCtrfTest(test, reportDir));
      }
    }
  },

  // Where a test is, is its index in results.tests.
  noteLines(shownAs, { unnamed, unreadableTimes }, { renamed }) {
    const lines: string[] = [];
    if (unnamed.count > 0) {
      lines.push(
        `${shownAs}: results.tests[${unnamed.firstLine}]: ${countOf(unnamed.count, 'test has', 'tests have')} no name; sent as (unnamed).`,
      );
    }
    if (unreadableTimes.count > 0) {
      lines.push(
        `${shownAs}: results.tests[${unreadableTimes.firstLine}]: ${countOf(unreadableTimes.count, 'test has a duration that is', 'tests have a duration that is')} not a number of milliseconds ("duration": ${unreadableTimes.first}); sent with duration 0.`,
      );
    }
    if (renamed > 0) {
      lines.push(
        `${shownAs}: ${countOf(renamed, 'test repeats', 'tests repeat')} the name of an earlier one; each is sent as a result of its own, with (2), (3)… after its name.`,
      );
    }
    return lines;
  },
};

const tapReader: FormatReader = {
  async read(chunks, { shownAs, suite }, feeder, notes) {
    notes.framework = TAP_FRAMEWORK;
    for await (const events of readTap(chunks, shownAs)) {
      for (const event of events) {
        if (event.kind === 'incomplete') {
          notes.incomplete = event.incomplete.reason;
          const mapped = mapTapIncomplete(event.incomplete, suite);
          if (mapped) feeder.add(mapped);
          continue;
        }
        if (event.kind === 'long-lines') {
          notes.longLines = { count: event.count, firstLine: event.firstLine };
          continue;
        }
        if (event.kind === 'long-diagnostics') {
          notes.longDiagnostics = { count: event.count, firstLine: event.firstLine };
          continue;
        }
        const { point } = event;
        if (point.titles.length > 0 && point.titles.at(-1)!.trim() === '') {
          notes.unnamed.count++;
          notes.unnamed.firstLine ??= point.index;
        }
        // A duration no test has (`duration_ms: 1e308`) is sent as 0 by core; said here.
        if (point.time !== null && !isPlausibleDuration(point.time)) {
          notes.unreadableTimes.count++;
          notes.unreadableTimes.firstLine ??= point.index;
          notes.unreadableTimes.first ??= String(point.time);
        }
        feeder.add(mapTapPoint(point, suite));
      }
    }
  },

  // Where a test is, is its number among the stream's test points.
  noteLines(shownAs, { unnamed, unreadableTimes, incomplete, longLines, longDiagnostics }, { renamed }) {
    const lines: string[] = [];
    if (incomplete !== undefined) {
      lines.push(
        `${shownAs}: its tests did not all run: ${incomplete}${/[.?!]$/.test(incomplete) ? '' : '.'}`,
      );
    }
    if (longLines !== undefined) {
      lines.push(
        `${shownAs}:${longLines.firstLine}: ${countOf(longLines.count, 'line is', 'lines are')} longer than ${formatCount(MAX_TAP_LINE)} characters; each is read as its first ${formatCount(MAX_TAP_LINE)} (a test point's name, a diagnostic or output that long is cut there).`,
      );
    }
    if (longDiagnostics !== undefined) {
      lines.push(
        `${shownAs}:${longDiagnostics.firstLine}: ${countOf(longDiagnostics.count, 'YAML diagnostics block is', 'YAML diagnostics blocks are')} longer than ${formatCount(MAX_TAP_DIAGNOSTICS)} characters; its test point is sent without them (its duration kept).`,
      );
    }
    if (unnamed.count > 0) {
      lines.push(
        `${shownAs}: test point ${unnamed.firstLine}: ${countOf(unnamed.count, 'test point has', 'test points have')} no description; sent as (unnamed).`,
      );
    }
    if (unreadableTimes.count > 0) {
      lines.push(
        `${shownAs}: test point ${unreadableTimes.firstLine}: ${countOf(unreadableTimes.count, 'test point has a duration that is', 'test points have a duration that is')} not a number of milliseconds from 0 to 24.8 days (${unreadableTimes.first}); sent with duration 0.`,
      );
    }
    if (renamed > 0) {
      lines.push(
        `${shownAs}: ${countOf(renamed, 'result repeats', 'results repeat')} the name of an earlier one; each is sent as a result of its own, with (2), (3)… after its name.`,
      );
    }
    return lines;
  },
};

const READERS: Record<ReportFormat, FormatReader> = { junit: junitReader, ctrf: ctrfReader, tap: tapReader };
