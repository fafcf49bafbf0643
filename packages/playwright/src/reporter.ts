import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
  WorkerInfo,
} from '@playwright/test/reporter';
import {
  type FileReport,
  guardEndHook,
  guardHook,
  line,
  type RawFailure,
  type RawTest,
  RunReporter,
  type TestrunOptions,
} from '@testrun/core';
import { errorOrigin } from './error-origin.js';
import { interactiveMode } from './interactive-mode.js';
import { lastFinishedAttempt, mapTest } from './map-test.js';
import { type MergedProjectCount, mergedProjectCount } from './merged-projects.js';
import { type TestFile, TestFiles } from './test-files.js';

export type TestrunPlaywrightOptions = TestrunOptions;

/**
 * Playwright Test reporter: creates the run when the tests start, streams each spec file's
 * results as the file finishes (retries included), and delivers the rest before Playwright
 * exits. Every hook catches its own errors: a reporting problem must never fail a test run.
 */
export class TestrunReporter implements Reporter {
  private readonly options: Record<string, unknown>;
  private readonly listMode: boolean;
  /** `playwright merge-reports`: the run is read from blob reports, no test runs in this process. */
  private readonly mergeMode: boolean;
  /** In merge mode, the count that names results, read from the shards' configuration until the end. */
  private mergedProjects: Promise<MergedProjectCount> | undefined;
  /** In merge mode, errors held until the run exists at the end. */
  private readonly mergedErrors: [TestError, WorkerInfo | undefined][] = [];
  private config: FullConfig | undefined;
  private run: RunReporter | undefined;
  private files: TestFiles | undefined;
  private readonly runErrors: string[] = [];
  private flakyTests = 0;
  private failedTests = 0;
  private ending: Promise<void> | undefined;
  /** Every failure was a quarantined test's, and nothing else failed: onEnd passes the run (docs/design/quarantine.md). */
  private quarantinePasses = false;

  constructor(options?: TestrunPlaywrightOptions) {
    const { own, user } = splitOptions(options);
    this.options = user;
    // `playwright test --list` only lists the tests: there is no run to report.
    this.listMode = own._mode === 'list';
    this.mergeMode = own._mode === 'merge';
  }

  /** Playwright keeps its own terminal output (list or line) when no reporter prints to stdout. */
  printsToStdio(): boolean {
    return false;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    guardHook(() => {
      if (this.listMode) return;
      // UI mode builds its reporters anew for every run it starts: core says its lines once.
      const interactive = interactiveMode(process.argv, process.env);
      this.config = config;
      if (this.mergeMode) {
        // The shards have ended: there is nothing to stream, and how results are named
        // depends on the shards' configuration, read meanwhile. The run starts at the end.
        this.mergedProjects = mergedProjectCount(config, process.argv, process.cwd());
        this.files = new TestFiles(suite);
        return;
      }
      // The configured projects, not those `--project` selected: a filter must not rename results.
      this.run = this.createRun(config, config.projects.length, interactive !== undefined);
      if (!this.run.active) return;
      this.files = new TestFiles(suite);
      this.run.startRun();
    });
  }

  private createRun(config: FullConfig, projectCount: number, watchMode: boolean): RunReporter {
    return new RunReporter({
      options: this.options,
      framework: { name: 'playwright', version: config.version },
      rootDir: config.rootDir,
      projectCount,
      watchMode,
      shard: config.shard ? { index: config.shard.current, count: config.shard.total } : undefined,
      // A signal Playwright does not handle (SIGTERM, SIGHUP) ends the process before onEnd:
      // the finished tests of files still running are handed over then, to be spooled.
      flushOnExit: () => this.reportOpenFiles(),
      // Playwright takes the run's status from onEnd's answer: a run whose only failures are
      // quarantined tests' passes here, in the process.
      decidesVerdict: true,
    });
  }

  /** Merge mode: the run, once the shards' configuration says how many projects name results; then the errors held. */
  private async startMergedRun(config: FullConfig, projects: Promise<MergedProjectCount>): Promise<void> {
    const { count, problem } = await projects;
    this.run = this.createRun(config, count, false);
    if (!this.run.active) return;
    if (problem) line(problem);
    this.run.startRun();
    for (const [error, workerInfo] of this.mergedErrors) guardHook(() => this.placeError(error, workerInfo));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    guardHook(() => {
      // After the end, core would take a result for the start of a new run.
      if (this.ending) return;
      const finished = this.files?.attemptEnded(test, result);
      if (finished) this.report(finished);
    });
  }

  onError(error: TestError, workerInfo?: WorkerInfo): void {
    guardHook(() => {
      if (!this.files || !this.config || this.ending) return;
      if (this.mergeMode) this.mergedErrors.push([error, workerInfo]);
      else this.placeError(error, workerInfo);
    });
  }

  private placeError(error: TestError, workerInfo: WorkerInfo | undefined): void {
    if (!this.config) return;
    const origin = errorOrigin(error, workerInfo, this.config);
    if (origin.kind === 'run') this.runErrors.push(origin.message);
    if (origin.kind !== 'file') return;
    for (const project of origin.projects) this.fileFailed(origin.file, project, error);
  }

  /** Playwright awaits this before it exits: delivery finishes here, within flushTimeout. */
  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    this.ending ??= this.end(result);
    await this.ending;
    // Set only with failOnError; core has printed the reason.
    if (this.run?.error) return { status: 'failed' };
    return result.status === 'failed' && this.quarantinePasses ? { status: 'passed' } : undefined;
  }

  /** Normally the run has ended in onEnd; if Playwright skipped it, the run still ends, and nothing is left open. */
  async onExit(): Promise<void> {
    this.ending ??= this.end();
    await this.ending;
  }

  /** `result`: Playwright's verdict (absent when onEnd never came), which ends the run too: a `globalTimeout` fails it. */
  private async end(result?: FullResult): Promise<void> {
    await guardEndHook(async () => {
      if (this.config && this.mergedProjects) await this.startMergedRun(this.config, this.mergedProjects);
      const run = this.run;
      if (!run) return;
      const notRun = this.reportOpenFiles();
      run.addRunErrors(this.runErrors);
      const summary = await run.endRun(this.notes(notRun), {
        failed: result?.status === 'failed' || result?.status === 'timedout',
        interrupted: result?.status === 'interrupted',
        ...this.testsAlone(result, notRun),
      });
      this.quarantinePasses = summary?.quarantine?.passes === true;
    });
  }

  /** Whether Playwright failed the run for its failed tests alone (testsAlone, below). */
  private testsAlone(result: FullResult | undefined, notRun: number) {
    return testsAlone({
      status: result?.status,
      maxFailures: this.config?.maxFailures ?? 0,
      failedTests: this.failedTests,
      notRun,
      failOnFlakyTests:
        (this.config as { failOnFlakyTests?: boolean } | undefined)?.failOnFlakyTests === true,
      flakyTests: this.flakyTests,
    });
  }

  /**
   * Files still open: the run was interrupted (Ctrl-C, --max-failures, globalTimeout, a
   * signal) or a worker died. What finished is reported; what never ran is not, and is
   * counted in the return value.
   */
  private reportOpenFiles(): number {
    let notRun = 0;
    for (const file of this.files?.all() ?? []) {
      if (file.reported) continue;
      // The tests mapTest leaves out: those without a finished attempt.
      notRun += file.tests.filter((test) => lastFinishedAttempt(test) === undefined).length;
      guardHook(() => this.report(file));
    }
    return notRun;
  }

  private report(file: TestFile): void {
    if (!this.run?.active) return;
    file.reported = true;
    const tests: RawTest[] = [];
    for (const test of file.tests) {
      const mapped = mapTest(test, file.tests);
      if (!mapped) continue;
      tests.push(mapped.test);
      if (mapped.flaky) this.flakyTests += 1;
      if (mapped.test.status === 'failed') this.failedTests += 1;
    }
    if (tests.length === 0 && !file.failedOutsideTests) return;
    this.run.addFile({
      ...fileOf(file.file, file.project),
      tests,
      failedOutsideTests: file.failedOutsideTests,
      failure: failureOf(file.errors),
    });
  }

  /** An error Playwright placed in a test file: `(file failed to run)` with that error, unless a test of the file failed already (core keeps count). */
  private fileFailed(file: string, project: FullConfig['projects'][number], error: TestError): void {
    const tracked = this.files?.find(file, project);
    if (tracked && !tracked.reported) {
      tracked.failedOutsideTests = true;
      tracked.errors.push(error);
      return;
    }
    // Reported already, or a file that failed to load and so has no tests in the run.
    this.run?.addFile({
      ...fileOf(file, project),
      tests: [],
      failedOutsideTests: true,
      failure: failureOf([error]),
    });
  }

  private notes(notRun: number): string[] {
    const notes: string[] = [];
    if (this.flakyTests > 0) {
      notes.push(`${this.flakyTests} flaky ${this.flakyTests === 1 ? 'test' : 'tests'} (passed on a retry)`);
    }
    if (notRun > 0) notes.push(`${notRun} ${notRun === 1 ? 'test' : 'tests'} did not run, not reported`);
    return notes;
  }
}

/** Playwright adds options of its own (`configDir`, `_mode`, …) to every reporter's; core must see only the user's. */
function splitOptions(options: unknown): { own: Record<string, unknown>; user: Record<string, unknown> } {
  const own: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  if (options && typeof options === 'object') {
    for (const [name, value] of Object.entries(options)) {
      if (name === 'configDir' || name.startsWith('_')) own[name] = value;
      else user[name] = value;
    }
  }
  return { own, user };
}

/** What failed a file outside its tests: Playwright's errors, where it says the first was thrown. */
function failureOf(errors: readonly TestError[]): RawFailure | undefined {
  return errors.length > 0 ? { errors, location: errors[0]?.location } : undefined;
}

function fileOf(
  file: string,
  project: FullConfig['projects'][number] | undefined,
): Omit<FileReport, 'tests'> {
  return { file, project: project ? { name: project.name, root: project.testDir } : undefined };
}

/**
 * Whether Playwright failed the run for its failed tests alone (quarantine,
 * docs/design/quarantine.md): errors outside the tests are results already; but a run cut
 * short (--max-failures, its globalTimeout, tests that never ran) or failed for a flaky test
 * (failOnFlakyTests) failed for more, and its verdict stands.
 */
export function testsAlone(run: {
  status: FullResult['status'] | undefined;
  maxFailures: number;
  failedTests: number;
  notRun: number;
  failOnFlakyTests: boolean;
  flakyTests: number;
}): { failedByTestsAlone: boolean; notTestsAlone?: string } {
  const doubt = (why: string) => ({ failedByTestsAlone: false, notTestsAlone: why });
  if (run.status === undefined) return doubt('Playwright ended without its verdict');
  if (run.status === 'timedout') return doubt('Playwright reached its globalTimeout');
  if (run.maxFailures > 0 && run.failedTests >= run.maxFailures) {
    return doubt('Playwright stopped at --max-failures, before every test ran');
  }
  if (run.notRun > 0) return doubt(`${run.notRun} ${run.notRun === 1 ? 'test' : 'tests'} never ran`);
  if (run.failOnFlakyTests && run.flakyTests > 0)
    return doubt('failOnFlakyTests is set, and a test was flaky');
  return { failedByTestsAlone: run.status !== 'interrupted' };
}
