import {
  guardEndHook,
  guardHook,
  OutputTail,
  type RawAttachment,
  RunReporter,
  type TestrunOptions,
} from '@testrun/core';
import type {
  Reporter,
  SerializedError,
  TestModule,
  TestRunEndReason,
  TestSpecification,
  Vitest,
} from 'vitest/node';

/** What Vitest says of a line a test printed (its UserConsoleLog), as far as this reporter reads it. */
interface ConsoleLog {
  content: string;
  type: 'stdout' | 'stderr';
  taskId?: string;
}

import { errorsOutsideTests, type ScheduledFile } from './errors-outside-tests.js';
import { frameworkProject, mapTestModule } from './map-module.js';
import { configuredProjectCount } from './project-count.js';

export type TestrunVitestOptions = TestrunOptions;

/** A scheduled file as errors outside tests are pinned to it. */
export function scheduledFile(specification: TestSpecification): ScheduledFile {
  return { file: specification.moduleId, project: frameworkProject(specification.project) };
}

/**
 * Vitest reporter: streams each test file's results to the service as the file ends.
 * Every hook catches its own errors: a reporting problem must never fail a test run.
 */
export class TestrunReporter implements Reporter {
  private readonly options: TestrunVitestOptions | undefined;
  private run: RunReporter | undefined;
  /** Set by `dangerouslyIgnoreUnhandledErrors`: Vitest then passes despite errors outside tests. */
  private ignoresUnhandledErrors = false;
  /** Modules already reported in this run, so the end-of-run sweep adds none twice. */
  private readonly reportedModules = new Set<string>();
  /** The files of this run, in their projects: errors are pinned to them. With --shard, all shards' files. */
  private scheduled: ScheduledFile[] = [];
  /** The files this process was to run (its shard's): those that never finished can still be reported. */
  private mine: ScheduledFile[] | undefined;
  private vitest: Vitest | undefined;
  /** `--merge-reports`: the run is read from blob reports, no test runs in this process. */
  private merged = false;
  /** What each running test printed (the last 64 KB of each stream), by its id, until its module is reported. */
  private readonly printed = new Map<string, { stdout: OutputTail; stderr: OutputTail }>();

  constructor(options?: TestrunVitestOptions) {
    this.options = options;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    guardHook(() => {
      const { root, watch, shard, dangerouslyIgnoreUnhandledErrors, mergeReports } = vitest.config;
      this.merged = Boolean(mergeReports);
      this.ignoresUnhandledErrors = Boolean(dangerouslyIgnoreUnhandledErrors);
      this.run = new RunReporter({
        options: this.options,
        framework: { name: 'vitest', version: vitest.version },
        rootDir: root,
        projectCount: configuredProjectCount(vitest),
        watchMode: watch,
        shard: shard ? { index: shard.index, count: shard.count } : undefined,
        flushOnExit: () => this.reportUnfinishedModules(),
      });
    });
  }

  async onTestRunStart(specifications?: ReadonlyArray<TestSpecification>): Promise<void> {
    guardHook(() => {
      this.reportedModules.clear();
      this.scheduled = (specifications ?? []).map(scheduledFile);
      this.mine = undefined;
      if (!this.run?.active) return;
      this.run.startRun();
    });
    if (this.run?.active) this.mine = await this.ownShare(specifications ?? []);
  }

  /**
   * The files this process runs. Vitest hands reporters every file before it shards them,
   * so with --shard its own sequencer picks this shard's, as Vitest does; if that fails,
   * the share is unknown. A shard count above the file count Vitest refuses (3.2 to 5, unless
   * passWithNoTests) before it runs any file: the share is none, and the refusal is the run's
   * error, not a failure of the files the sequencer would have picked. A merge of blob
   * reports runs no file: the blobs say how each ended, and one Vitest leaves out of its end
   * (it does so outside the shards' folder) has not failed.
   */
  private async ownShare(
    specifications: ReadonlyArray<TestSpecification>,
  ): Promise<ScheduledFile[] | undefined> {
    if (this.merged) return undefined;
    try {
      const config = this.vitest?.config;
      if (!config?.shard) return specifications.map(scheduledFile);
      if (!config.passWithNoTests && config.shard.count > specifications.length) return [];
      const sequencer = new config.sequence.sequencer(this.vitest!);
      return (await sequencer.shard([...specifications])).map(scheduledFile);
    } catch {
      return undefined;
    }
  }

  onTestModuleEnd(module: TestModule): void {
    guardHook(() => this.report(module));
  }

  /** A test's console output: its tail goes with the test (docs/attachments.md). */
  onUserConsoleLog(log: ConsoleLog): void {
    guardHook(() => {
      if (!this.run?.active || !log.taskId) return;
      let tails = this.printed.get(log.taskId);
      if (!tails) {
        tails = { stdout: new OutputTail(), stderr: new OutputTail() };
        this.printed.set(log.taskId, tails);
      }
      tails[log.type === 'stderr' ? 'stderr' : 'stdout'].push(log.content);
    });
  }

  /** What the test printed, as attachments; forgotten once read (its module is reported once). */
  private printedBy(testId: string): RawAttachment[] | undefined {
    const tails = this.printed.get(testId);
    if (!tails) return undefined;
    this.printed.delete(testId);
    const printed: RawAttachment[] = [];
    for (const name of ['stdout', 'stderr'] as const) {
      const tail = tails[name];
      // Made into bytes only if core sends them: a passing test's output is not, by default.
      if (tail.printed)
        printed.push({
          name,
          contentType: 'text/plain; charset=utf-8',
          body: () => tail.attachment(name)?.body,
        });
    }
    return printed.length > 0 ? printed : undefined;
  }

  async onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason?: TestRunEndReason,
  ): Promise<void> {
    const run = this.run;
    if (!run) return;
    await guardEndHook(async () => {
      // Some Vitest versions skip the module hooks of a file that fails to import.
      for (const module of testModules) guardHook(() => this.report(module));
      const notes: string[] = [];
      guardHook(() => notes.push(...this.reportErrorsOutsideTests(testModules, unhandledErrors, reason)));
      // Vitest's own verdict ends the run too: a run it failed for a reason no result holds
      // (a coverage threshold) is failed, a run cut short (Ctrl-C, --bail) interrupted.
      await run.endRun(notes, {
        failed: reason === 'failed',
        interrupted: reason === 'interrupted',
        ...testsAlone(this.vitest),
      });
      // Set only with failOnError; core has printed the reason.
      if (run.error) process.exitCode = 1;
    });
  }

  /**
   * Errors outside any test, and files that never ran, fail a Vitest run: each becomes a
   * failed result, of the file it names or of the run (see errors-outside-tests.ts), so a
   * red build is never green in the service. Returns the note for the summary line.
   */
  private reportErrorsOutsideTests(
    testModules: ReadonlyArray<TestModule>,
    errors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason | undefined,
  ): string[] {
    if (!this.run?.active) return [];
    const ran = new Set(
      testModules
        .filter((module) => module.state() !== 'pending' && module.state() !== 'queued')
        .map((module) => `${module.project.name}\0${module.moduleId}`),
    );
    const finished = ({ file, project }: ScheduledFile) => ran.has(`${project.name ?? ''}\0${file}`);
    // With dangerouslyIgnoreUnhandledErrors they do not fail the run, so they are no failed results either.
    const failing = this.ignoresUnhandledErrors ? [] : errors;
    const { failedFiles, runErrors } = errorsOutsideTests(
      { scheduled: this.scheduled, mine: this.mine, finished, reason },
      failing,
    );
    for (const { file, project, errors: why } of failedFiles) {
      this.run.addFile({ file, project, tests: [], failedOutsideTests: true, failure: { errors: why } });
    }
    this.run.addRunErrors(runErrors);
    if (errors.length === 0) return [];
    const count = `${errors.length} unhandled ${errors.length === 1 ? 'error' : 'errors'}`;
    return [
      this.ignoresUnhandledErrors
        ? `${count}, ignored (dangerouslyIgnoreUnhandledErrors)`
        : `${count}, reported as failed results`,
    ];
  }

  /** The process is going away mid-run (a cancelled job): the tests that ended in files still running are kept too. */
  private reportUnfinishedModules(): void {
    for (const module of this.vitest?.state.getTestModules() ?? []) {
      guardHook(() => this.report(module, true));
    }
  }

  /**
   * Hands core a module's tests, once per run. `unfinished`: the process is going away and the
   * module may still be running, so only its ended tests are taken; that path passes no `merged`.
   */
  private report(module: TestModule, unfinished = false): void {
    if (!this.run?.active || this.reportedModules.has(module.id)) return;
    this.reportedModules.add(module.id);
    const output = (testId: string) => this.printedBy(testId);
    this.run.addFile(
      mapTestModule(module, unfinished ? { unfinished, output } : { merged: this.merged, output }),
    );
  }
}

/**
 * Whether Vitest fails a run for its failed tests alone (quarantine, docs/design/quarantine.md):
 * every other failure it has is a result already (an error outside the tests, a file that did
 * not run), but a coverage threshold: Vitest checks them after its reporters end, and only when
 * no test failed (unless coverage.reportOnFailure), so a run whose failures are quarantined
 * tests' was never checked against them. With thresholds set, its verdict stands.
 */
export function testsAlone(vitest: Pick<Vitest, 'config'> | undefined): {
  failedByTestsAlone: boolean;
  notTestsAlone?: string;
} {
  const coverage = vitest?.config.coverage as
    | { enabled?: boolean; thresholds?: Record<string, unknown> }
    | undefined;
  const thresholds = Object.keys(coverage?.thresholds ?? {}).filter(
    (key) => key !== 'perFile' && key !== 'autoUpdate',
  );
  if (coverage?.enabled && thresholds.length > 0) {
    return {
      failedByTestsAlone: false,
      notTestsAlone: 'coverage thresholds are set, which Vitest checks only when no test failed',
    };
  }
  return { failedByTestsAlone: vitest !== undefined };
}
