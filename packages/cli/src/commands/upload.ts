import { countOf, type DeliverySummary, RunReporter, type TestrunOptions } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, type Output, UsageError } from '../command.js';
import { chooseFramework } from '../junit/detect-framework.js';
import { findReports, type ReportFile } from '../junit/find-reports.js';
import { ReportReadError } from '../junit/open-report.js';
import { RepeatFinder, RepeatNamer } from '../junit/repeat-names.js';
import { ReportPaths } from '../junit/report-paths.js';
import { ResultFeeder } from '../junit/result-feeder.js';
import { type ReportNotes, readReport } from '../junit/upload-report.js';

export const upload = defineCommand({
  name: 'upload',
  positionals: '<files or globs…>',
  about: `
Sends every testcase of JUnit XML reports (pytest, Maven Surefire, Gradle, Go,
Mocha, Vitest's junit reporter, jest-junit…) and every test of CTRF JSON
reports (https://ctrf.io) into a new run, or into TESTRUN_RUN_ID, the way the
reporters send theirs: batched, retried, and spooled for "testrun replay" when
the service cannot take them.

  npx @testrun/cli upload "reports/**/*.xml" "ctrf/*.json" --project api

Quote globs so that they reach testrun whole. A report's format is told by its
content, and gzip'd reports are read as they are. Each report is read whole
before anything of it is sent: a report that is not well-formed is not sent
at all, and named with its line. Paths in "file" attributes and "filePath"
are taken from the current directory: run it where the tests ran. How each
writer's JUnit is read, and how CTRF is:
https://github.com/testrun-dev/testrun/blob/main/docs/junit.md
https://github.com/testrun-dev/testrun/blob/main/docs/ctrf.md

Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment. Exits 0
when every result was delivered or spooled, 1 otherwise.
`,
  flags: {
    project: { type: 'string', value: '<name>', option: 'project' },
    framework: {
      type: 'string',
      value: '<name>',
      help: "the run's framework (default: what the reports say, e.g. pytest, jest, vitest, surefire, a CTRF report's tool; else junit)",
    },
    tags: { type: 'string', value: '<a,b>', option: 'tags' },
    'run-id': { type: 'string', value: '<id>', option: 'runId' },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, positionals, output }) => {
    if (positionals.length === 0) {
      throw new UsageError(
        'give the JUnit XML or CTRF JSON reports to upload, e.g. testrun upload "reports/**/*.xml"',
      );
    }
    const framework = values.framework?.trim();
    if (values.framework !== undefined && !framework) {
      throw new UsageError('--framework needs a name, e.g. pytest');
    }
    if (!resolveCliConfig(options, output)) return 1;
    return uploadReports(positionals, options, framework, output);
  },
});

async function uploadReports(
  args: readonly string[],
  options: TestrunOptions,
  framework: string | undefined,
  output: Output,
): Promise<number> {
  const cwd = process.cwd();
  const found = await findReports(args, cwd);
  for (const pattern of found.unmatched) output.error(`no file matches ${pattern}`);

  const paths = new ReportPaths(cwd);
  const finder = new RepeatFinder();
  const { checked, unreadable } = await checkReports(
    found.files,
    { feeder: new ResultFeeder(finder, paths), paths },
    output,
  );
  if (checked.length === 0) {
    output.error('no JUnit XML or CTRF report to send; nothing was sent, and no run was created.');
    return 1;
  }

  const reporter = new RunReporter({
    options,
    // No framework version is known from a report; "junit" or "ctrf" in the User-Agent says where the results came from.
    framework: {
      name: framework ?? chooseFramework(checked.map(({ check }) => check.framework)),
      version: checked.every(({ check }) => check.format === 'ctrf') ? 'ctrf' : 'junit',
    },
    rootDir: cwd,
  });
  reporter.startRun();
  const namer = new RepeatNamer(reporter, finder.repeated);
  const feeder = new ResultFeeder(namer, paths);
  const allSent = await sendReports(checked, { feeder, namer, paths }, output);

  const notes = unreadable > 0 ? [`${countOf(unreadable, 'report')} not sent (see above)`] : [];
  const outcome = await reporter.endRun(notes);
  if (!outcome) return 1;
  // Spooled, but a replay with the same key or certificates would fail the same way.
  if (outcome.stopped === 'refused-key') {
    output.error(
      'TESTRUN_API_KEY was refused: the results are spooled, but a replay needs a key the service takes.',
    );
    return 1;
  }
  if (outcome.stopped === 'tls') {
    output.error('the TLS connection failed (see above): the results are spooled; fix it, then replay them.');
    return 1;
  }
  return allAccountedFor(outcome, feeder.count) && unreadable === 0 && allSent ? 0 : 1;
}

type CheckedFile = { report: ReportFile; check: ReportNotes };

/**
 * Reads every report once, sending nothing, its results going to the RepeatFinder behind
 * `feeder`: the whole reports are kept, the others named.
 */
async function checkReports(
  files: readonly ReportFile[],
  { feeder, paths }: { feeder: ResultFeeder; paths: ReportPaths },
  output: Output,
): Promise<{ checked: CheckedFile[]; unreadable: number }> {
  const checked: CheckedFile[] = [];
  let unreadable = 0;
  for (const report of files) {
    try {
      checked.push({ report, check: await readReport(report.path, report.shownAs, feeder, paths) });
    } catch (error) {
      unreadable++;
      output.error(`${describeFailure(error)} Nothing from it is sent.`);
    }
  }
  return { checked, unreadable };
}

/** Hands every testcase of the checked reports to core; false if one could not be read again. */
async function sendReports(
  checked: readonly CheckedFile[],
  { feeder, namer, paths }: { feeder: ResultFeeder; namer: RepeatNamer; paths: ReportPaths },
  output: Output,
): Promise<boolean> {
  let allSent = true;
  for (const { report, check } of checked) {
    const before = { count: feeder.count, rerun: feeder.rerun, renamed: namer.renamed };
    try {
      const notes = await readReport(report.path, report.shownAs, feeder, paths);
      for (const line of noteLines(report.shownAs, notes, {
        rerun: feeder.rerun - before.rerun,
        renamed: namer.renamed - before.renamed,
        writer: check.framework,
      })) {
        output.error(line);
      }
    } catch (error) {
      allSent = false;
      output.error(
        `${describeFailure(error)} It changed while it was being sent: ${countOf(feeder.count - before.count, 'result')} from it went to the run before that point.`,
      );
    }
  }
  return allSent;
}

/** One line for each thing about a report that the user should know, naming the report. */
function noteLines(
  shownAs: string,
  notes: ReportNotes,
  counts: { rerun: number; renamed: number; writer: string | undefined },
): string[] {
  return notes.format === 'ctrf'
    ? ctrfNoteLines(shownAs, notes, counts)
    : junitNoteLines(shownAs, notes, counts);
}

/** noteLines of a CTRF report: where a test is, is its index in results.tests. */
function ctrfNoteLines(
  shownAs: string,
  { unnamed, unreadableTimes }: ReportNotes,
  { renamed }: { renamed: number },
): string[] {
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
}

function junitNoteLines(
  shownAs: string,
  { unnamed, unreadableTimes, replacedCharacters }: ReportNotes,
  { rerun, renamed, writer }: { rerun: number; renamed: number; writer: string | undefined },
): string[] {
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
}

/** Every result handed to core was delivered or spooled for `testrun replay`: none lost. */
function allAccountedFor(outcome: DeliverySummary, handedOver: number): boolean {
  return outcome.delivered + outcome.spooled === handedOver && outcome.failed === 0;
}

/** The problem as one sentence, ending in a full stop, for more to follow. */
function describeFailure(error: unknown): string {
  const message =
    error instanceof ReportReadError ? error.message : `internal error: ${(error as Error).message}`;
  return /[.?!]$/.test(message) ? message : `${message}.`;
}
