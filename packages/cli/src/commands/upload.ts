import path from 'node:path';
import { countOf, type DeliverySummary, RunReporter, type TestrunOptions } from '@testrun/core';
import { resolveCliConfig, TLS_FLAGS } from '../cli-config.js';
import { defineCommand, type Output, UsageError } from '../command.js';
import { chooseFramework } from '../reports/detect-framework.js';
import { findReports, type ReportFile } from '../reports/find-reports.js';
import { REPORT_FORMATS, type ReportFormat, ReportReadError } from '../reports/open-report.js';
import { RepeatFinder, RepeatNamer } from '../reports/repeat-names.js';
import { ReportPaths } from '../reports/report-paths.js';
import { ResultFeeder } from '../reports/result-feeder.js';
import {
  drainStandardInput,
  type SavedInput,
  STANDARD_INPUT_NAME,
  saveStandardInput,
} from '../reports/standard-input.js';
import { noteLines, type ReadContext, type ReportNotes, readReport } from '../reports/upload-report.js';

export const upload = defineCommand({
  name: 'upload',
  positionals: '<files or globs…>',
  about: `
Sends every testcase of JUnit XML reports (pytest, Maven Surefire, Gradle, Go,
Mocha, Vitest's junit reporter, jest-junit…), every test of CTRF JSON reports
(https://ctrf.io) and every result of TAP streams (node-tap, AVA --tap,
node --test --test-reporter=tap, tape…) into a new run, or into
TESTRUN_RUN_ID, the way the reporters send theirs: batched, retried, and
spooled for "testrun replay" when the service cannot take them.

  npx @testrun/cli upload "reports/**/*.xml" "ctrf/*.json" --project api
  npx ava --tap | npx @testrun/cli upload --format tap --project api -

Quote globs so that they reach testrun whole; "-" reads a report from
standard input. A report's format is told by its content (--format says it
instead), and gzip'd reports are read as they are. Each report is read whole
before anything of it is sent: a report that is not well-formed is not sent
at all, and named with its line. Paths in "file" attributes and "filePath"
are taken from the current directory: run it where the tests ran. How each
writer's JUnit is read, CTRF and TAP:
https://github.com/testrun-dev/testrun/blob/main/docs/junit.md
https://github.com/testrun-dev/testrun/blob/main/docs/ctrf.md
https://github.com/testrun-dev/testrun/blob/main/docs/tap.md

Reads TESTRUN_API_KEY and TESTRUN_BASE_URL from the environment. Exits 0
when every result was delivered or spooled, 1 otherwise.
`,
  flags: {
    project: { type: 'string', value: '<name>', option: 'project' },
    framework: {
      type: 'string',
      value: '<name>',
      help: "the run's framework (default: what the reports say, e.g. pytest, jest, vitest, surefire, a CTRF report's tool; tap for TAP; else junit)",
    },
    format: {
      type: 'string',
      value: '<junit|ctrf|tap>',
      help: 'read every report as this format (default: told by its content)',
    },
    suite: {
      type: 'string',
      value: '<name>',
      help: "the testSuite of TAP results no test file's subtest holds (default: the report's path; (stdin) for -)",
    },
    tags: { type: 'string', value: '<a,b>', option: 'tags' },
    'run-id': { type: 'string', value: '<id>', option: 'runId' },
    ...TLS_FLAGS,
  },
  run: async ({ values, options, positionals, output }) => {
    const piped = positionals.includes('-') && !process.stdin.isTTY;
    try {
      const settings = settingsOf(values, positionals);
      if (!resolveCliConfig(options, output)) return 1;
      const input = positionals.includes('-') ? await saveStandardInput() : undefined;
      try {
        return await uploadReports(positionals, options, settings, input, output);
      } finally {
        input?.remove();
      }
    } finally {
      // The writer piped in never finds its pipe closed (EPIPE, a changed exit code), even when
      // nothing is sent: a CI job without the key (a fork's pull request) reads it to its end.
      if (piped) await drainStandardInput();
    }
  },
});

interface UploadSettings {
  framework: string | undefined;
  format: ReportFormat | undefined;
  suite: string | undefined;
}

/** The command line's own flags, checked; a UsageError says what is wrong. */
function settingsOf(
  values: { framework?: string | undefined; format?: string | undefined; suite?: string | undefined },
  positionals: readonly string[],
): UploadSettings {
  if (positionals.length === 0) {
    throw new UsageError(
      'give the JUnit XML, CTRF JSON or TAP reports to upload, e.g. testrun upload "reports/**/*.xml", or - for standard input',
    );
  }
  const framework = values.framework?.trim();
  if (values.framework !== undefined && !framework) {
    throw new UsageError('--framework needs a name, e.g. pytest');
  }
  const format = values.format?.trim().toLowerCase();
  if (format !== undefined && !(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format must be ${REPORT_FORMATS.join(', ')}; got "${values.format}"`);
  }
  const suite = values.suite?.trim();
  if (values.suite !== undefined && !suite) throw new UsageError('--suite needs a name, e.g. api');
  if (positionals.filter((arg) => arg === '-').length > 1) {
    throw new UsageError('- (standard input) can be given once');
  }
  if (positionals.includes('-') && process.stdin.isTTY) {
    throw new UsageError(
      '- reads a report from standard input: pipe one in, e.g. npx ava --tap | testrun upload -',
    );
  }
  return { framework, format: format as ReportFormat | undefined, suite };
}

async function uploadReports(
  args: readonly string[],
  options: TestrunOptions,
  { framework, format, suite }: UploadSettings,
  input: SavedInput | undefined,
  output: Output,
): Promise<number> {
  const cwd = process.cwd();
  // Standard input is read where `-` stands among the arguments: the reports' order is the
  // order repeats are numbered in.
  const at = input ? args.indexOf('-') : args.length;
  const before = await findReports(args.slice(0, at), cwd);
  const after = await findReports(args.slice(at + 1), cwd);
  for (const pattern of [...before.unmatched, ...after.unmatched]) output.error(`no file matches ${pattern}`);
  const files = [
    ...before.files,
    ...(input ? [{ path: input.file, shownAs: STANDARD_INPUT_NAME }] : []),
    ...after.files,
  ];

  const paths = new ReportPaths(cwd);
  const contextOf = (report: ReportFile): ReadContext => ({
    shownAs: report.shownAs,
    paths,
    reportDir: report.shownAs === STANDARD_INPUT_NAME ? cwd : path.dirname(path.resolve(cwd, report.path)),
    format,
    suite: suite ?? defaultSuite(report),
  });
  const finder = new RepeatFinder();
  const { checked, unreadable } = await checkReports(
    files,
    { feeder: new ResultFeeder(finder, paths), contextOf },
    output,
  );
  if (checked.length === 0) {
    output.error('no JUnit XML, CTRF or TAP report to send; nothing was sent, and no run was created.');
    return 1;
  }

  const formats = new Set(checked.map(({ check }) => check.format));
  const reporter = new RunReporter({
    options,
    // No framework version is known from a report; the format in the User-Agent ("junit",
    // "ctrf", "tap") says where the results came from; "junit" for a mix.
    framework: {
      name: framework ?? chooseFramework(checked.map(({ check }) => check.framework)),
      version: formats.size === 1 ? [...formats][0]! : 'junit',
    },
    rootDir: cwd,
    fromReport: true,
  });
  reporter.startRun();
  const namer = new RepeatNamer(reporter, finder.repeated);
  const feeder = new ResultFeeder(namer, paths);
  const allSent = await sendReports(checked, { feeder, namer, contextOf }, output);

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

/**
 * The testSuite of a TAP report's results that no test file holds, without `--suite`: the
 * report's path as given (a file outside the current directory: its name), `(stdin)` for `-`.
 */
function defaultSuite(report: ReportFile): string {
  if (report.shownAs === STANDARD_INPUT_NAME) return STANDARD_INPUT_NAME;
  return path.isAbsolute(report.shownAs)
    ? path.basename(report.shownAs)
    : report.shownAs.split(path.sep).join('/');
}

type CheckedFile = { report: ReportFile; check: ReportNotes };

/**
 * Reads every report once, sending nothing, its results going to the RepeatFinder behind
 * `feeder`: the whole reports are kept, the others named.
 */
async function checkReports(
  files: readonly ReportFile[],
  { feeder, contextOf }: { feeder: ResultFeeder; contextOf: (report: ReportFile) => ReadContext },
  output: Output,
): Promise<{ checked: CheckedFile[]; unreadable: number }> {
  const checked: CheckedFile[] = [];
  let unreadable = 0;
  for (const report of files) {
    try {
      checked.push({ report, check: await readReport(report.path, contextOf(report), feeder) });
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
  {
    feeder,
    namer,
    contextOf,
  }: { feeder: ResultFeeder; namer: RepeatNamer; contextOf: (report: ReportFile) => ReadContext },
  output: Output,
): Promise<boolean> {
  let allSent = true;
  for (const { report, check } of checked) {
    const before = { count: feeder.count, rerun: feeder.rerun, renamed: namer.renamed };
    try {
      const notes = await readReport(report.path, contextOf(report), feeder);
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
