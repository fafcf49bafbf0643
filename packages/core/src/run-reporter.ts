import { withRealTaskQueues } from './clock.js';
import { Batcher } from './delivery/batcher.js';
import { RunSession } from './delivery/run-session.js';
import { openService } from './delivery/service.js';
import { TestrunError } from './errors.js';
import { keepExitGuard, onProcessExit, type ProcessEnd, receivedSignal } from './exit-guard.js';
import { lineOnce, redactInAdapterLines } from './hooks.js';
import { ciTags, type Shard } from './options/ci-tags.js';
import { type ConfigResolution, type ResolvedConfig, resolveConfig } from './options/config.js';
import { Logger } from './output/logger.js';
import { countOf, formatCount, formatSummary, replayCommand } from './output/summary.js';
import { toDuration, toResult } from './results/normalize.js';
import {
  FILE_FAILURE_CASE,
  runErrorResult,
  toName,
  toTestCase,
  toTestSuite,
  withProjectLabel,
  withVariant,
} from './results/result-name.js';
import type { DeliverySummary, FileReport, RawResult, ResultInfo, TestResult } from './types.js';
import { userAgent } from './version.js';

export interface RunReporterInit {
  /** The user's reporter options, unchecked: they are validated here. */
  options: unknown;
  framework: { name: string; version: string };
  /** The framework's root directory: test files are named relative to it (see result-name.ts). */
  rootDir: string;
  /** How many projects the framework's configuration defines; `projectLabel: 'auto'` labels results when above 1. */
  projectCount?: number;
  env?: NodeJS.ProcessEnv;
  /** Where lines go; stderr by default. */
  write?: (text: string) => void;
  watchMode?: boolean;
  shard?: Shard;
  /**
   * Called synchronously when the process exits before the run ended, before core spools what
   * it holds: hand core (`addFile`) the finished tests the adapter still holds, such as those
   * of a file that was still running (Playwright reports files once all their tests ended).
   */
  flushOnExit?: () => void;
}

/** One run from `startRun` to the end of `endRun`: its session, its batcher and its exit guard. */
interface ActiveRun {
  session: RunSession;
  batcher: Batcher;
  stopExitGuard: () => void;
  /**
   * Set once `endRun` began, to its outcome: results that still arrive go to the session
   * directly, never to a new run, and a second `endRun` waits for the same end.
   */
  ending: Promise<DeliverySummary | undefined> | undefined;
}

/** At most this many results stand for errors outside any test and file, however many there were. */
const MAX_RUN_ERROR_RESULTS = 5;

/**
 * The framework-neutral half of every reporter. Adapters call `startRun`, `addFile` (or
 * `addResults` for results already named), `addRunErrors` and `endRun`; everything here
 * catches its own errors, because a reporter that throws turns a green build red.
 */
export class RunReporter {
  private readonly init: RunReporterInit;
  /**
   * The environment as the run started: a test may clear `process.env` or point HTTP_PROXY
   * somewhere, and neither may reach a run (or a watch-mode rerun) that starts later.
   */
  private readonly env: NodeJS.ProcessEnv;
  private readonly logger: Logger;
  private readonly config: ResolvedConfig | undefined;
  /** The run results go to: the current one, or the one that ended last (late results are spooled in its name). */
  private run: ActiveRun | undefined;
  private added = 0;
  /** testSuites of this run that already hold a failed result: a file gets at most one `(file failed to run)`. */
  private readonly failedSuites = new Set<string>();
  /** testCases of this run's `(run)` results, at most MAX_RUN_ERROR_RESULTS; beyond, only counted. */
  private readonly runErrorCases = new Set<string>();
  private moreRunErrors = 0;
  private lastError: TestrunError | undefined;
  private lastErrorPrinted = false;
  private asyncMapResultSaid = false;
  private readonly failOnErrorSet: boolean;

  constructor(init: RunReporterInit) {
    this.init = init;
    this.env = { ...(init.env ?? process.env) };
    this.logger = new Logger(init.write);
    const resolution = resolveConfig({
      options: init.options,
      env: this.env,
      rootDir: init.rootDir,
    });
    this.failOnErrorSet =
      resolution.state === 'enabled'
        ? resolution.config.failOnError
        : resolution.state === 'invalid' && resolution.failOnError;
    this.config = this.configure(resolution);
  }

  /** Whether testSuite carries the framework project's name (the projectLabel option). */
  private get labelProjects(): boolean {
    const mode = this.config?.projectLabel ?? 'auto';
    return mode === 'always' || (mode === 'auto' && (this.init.projectCount ?? 1) > 1);
  }

  /** False when turned off, unconfigured or invalid: the adapter can skip its mapping work. */
  get active(): boolean {
    return this.config !== undefined;
  }

  /** Set only with `failOnError: true` when something was not delivered; adapters hand it to the framework. */
  get error(): TestrunError | undefined {
    return this.lastError;
  }

  /** The failOnError option as given, even when other options are invalid. */
  get failOnError(): boolean {
    return this.failOnErrorSet;
  }

  /** Starts a run, unless one is under way; a run whose end has begun (a watch-mode rerun) makes way for a new one. */
  startRun(): void {
    if (!this.config) return;
    this.guard(() => {
      if (this.run && !this.run.ending) return;
      const config = this.config!;
      this.added = 0;
      this.failedSuites.clear();
      this.runErrorCases.clear();
      this.moreRunErrors = 0;
      const session = this.createSession(config);
      const batcher = new Batcher(config.batchSize, config.flushInterval, (batch) => session.send(batch));
      const run: ActiveRun = { session, batcher, ending: undefined, stopExitGuard: () => {} };
      run.stopExitGuard = onProcessExit((end) => this.spoolOnExit(run, end));
      this.run = run;
      session.start();
    });
  }

  /**
   * One test file's tests, named by the identity rules, plus `(file failed to run)` when it
   * failed outside them. A file may be reported again later with no tests and
   * `failedOutsideTests` (an error the framework names it in at the end of the run): it
   * then gets that one result, unless it already has a failed one.
   */
  addFile(report: FileReport): void {
    if (!this.config) return;
    this.guard(() => {
      const { file, project, tests } = report;
      const label = this.labelProjects ? project?.name : undefined;
      const path = withVariant(toTestSuite(file, this.init.rootDir, project?.root), report.variant);
      const testSuite = withProjectLabel(path, label);
      const results: RawResult[] = tests.map(({ titles, status, duration }) => ({
        testSuite,
        testCase: toTestCase(titles),
        status,
        duration,
      }));
      const hasFailure = this.failedSuites.has(testSuite) || results.some((r) => r.status === 'failed');
      if (report.failedOutsideTests && !hasFailure) {
        results.push({ testSuite, testCase: FILE_FAILURE_CASE, status: 'failed', duration: 0 });
      }
      if (report.failedOutsideTests || hasFailure) this.failedSuites.add(testSuite);
      this.addResults(results, { file, project: project?.name });
    });
  }

  /**
   * Errors the framework reports outside any test and file (an unhandled rejection, a
   * crashed worker): each distinct first line becomes one failed result of the run, at
   * most a few, so a run that failed never looks green in the service.
   */
  addRunErrors(messages: readonly unknown[]): void {
    if (!this.config || messages.length === 0) return;
    this.guard(() => {
      const fresh: RawResult[] = [];
      for (const message of messages) {
        const result = runErrorResult(message);
        if (this.runErrorCases.has(result.testCase as string)) continue;
        if (this.runErrorCases.size >= MAX_RUN_ERROR_RESULTS) {
          this.moreRunErrors += 1;
          continue;
        }
        this.runErrorCases.add(result.testCase as string);
        fresh.push(result);
      }
      this.addResults(fresh);
    });
  }

  addResults(results: readonly RawResult[], info: Omit<ResultInfo, 'framework'> = {}): void {
    if (!this.config) return;
    this.guard(() => {
      if (!this.run) this.startRun();
      const run = this.run;
      if (!run) return;
      keepExitGuard();
      const mapped = results.map((raw) => this.toMappedResult(raw, info)).filter((r) => r !== null);
      this.added += mapped.length;
      // A file that ends while the run's end is delivering (Jest --bail, a slow service) still
      // belongs to this run: its session delivers it within the deadline, or spools it.
      if (run.ending) {
        if (mapped.length > 0) run.session.send(mapped);
      } else {
        run.batcher.add(mapped);
      }
    });
  }

  /**
   * Delivers what is left within flushTimeout and prints the summary line; with
   * failOnError, also the reason the run is failed. Never rejects.
   */
  async endRun(notes: readonly string[] = []): Promise<DeliverySummary | undefined> {
    const run = this.run;
    let summary: DeliverySummary | undefined;
    if (run && this.config) {
      // Jest with --bail calls its end hook twice: once at the bail, once when the files
      // still running have ended. The second waits for the first, so Jest does not exit
      // while the run is still delivering.
      const config = this.config;
      // A test may have faked the task queues and never restored them: the run's last
      // requests are made with the real ones (clock.ts).
      run.ending ??= withRealTaskQueues(() => this.end(run, config, notes));
      summary = await run.ending;
    }
    if (this.lastError && !this.lastErrorPrinted) {
      this.lastErrorPrinted = true;
      this.logger.line(`failing the test run because failOnError is set: ${this.lastError.message}`);
    }
    return summary;
  }

  private async end(run: ActiveRun, config: ResolvedConfig, notes: readonly string[]) {
    // Before `ending` is set: this result still goes through the batcher.
    if (this.moreRunErrors > 0) this.addResults([runErrorResult(`${this.moreRunErrors} more errors`)]);
    // A cancelled job whose framework ends the run itself (Playwright on SIGINT): what is
    // not delivered yet goes to the spool at once, so the process ends as soon as it would
    // have without the reporter, not after flushTimeout.
    if (receivedSignal()) this.guard(() => run.session.spoolNow(run.batcher.take()));
    else this.guard(() => run.batcher.flush());
    const summary = await this.finish(run.session, config, notes);
    run.stopExitGuard();
    return summary;
  }

  private async finish(session: RunSession, config: ResolvedConfig, notes: readonly string[]) {
    try {
      const summary = await session.finish();
      this.logger.line(formatSummary(summary, notes));
      const undelivered = this.added - summary.delivered;
      if (config.failOnError && (undelivered > 0 || summary.runId === undefined)) {
        this.lastError = new TestrunError(
          'TESTRUN_UNDELIVERED',
          `${formatCount(undelivered)} of ${countOf(this.added, 'result')} not delivered: ${summary.errors[0] ?? 'see above'}`,
        );
      }
      return summary;
    } catch (error) {
      const message = `internal error while finishing the run: ${(error as Error).message}`;
      this.logger.line(message);
      if (config.failOnError) this.lastError = new TestrunError('TESTRUN_INTERNAL', message);
      return undefined;
    }
  }

  /**
   * The process is going away before the run ended (a cancelled CI job, `process.exit()`
   * in a test, a crash): whatever is not delivered yet goes to the spool now,
   * synchronously. A process that exits with a failing code before the run ended failed
   * in a way no test result says (the test that called `process.exit()` never reported),
   * so the spool gets a failed `(run)` result for it: the run never looks green.
   */
  private spoolOnExit(run: ActiveRun, end: ProcessEnd): void {
    if (!run.ending) this.guard(() => this.init.flushOnExit?.());
    this.guard(() => {
      const { session } = run;
      const buffered = run.batcher.take();
      const why =
        'signal' in end ? `the process received ${end.signal}` : `the process exited (code ${end.code})`;
      // After the framework's end hook began, a failing exit is the framework's verdict on the
      // tests (Jest exits 1 after --bail), not a process that died mid-run.
      if ('code' in end && end.code !== 0 && !run.ending) {
        const result = this.toMappedResult(runErrorResult(`${why} before the run ended`), {});
        if (result) buffered.push(result);
      }
      const spooled = session.spoolNow(buffered);
      const file = session.spoolFile;
      if (spooled === 0 || !file) return;
      this.logger.line(
        `${why} before the run's results were delivered: ${countOf(spooled, 'result')} spooled to ${file}: send them with \`${replayCommand(file)}\``,
      );
    });
  }

  private configure(resolution: ConfigResolution): ResolvedConfig | undefined {
    // In watch mode the framework builds its reporters anew for every rerun: said once, not per rerun.
    const say = (message: string) =>
      this.init.watchMode ? lineOnce(message, (text) => this.logger.line(text)) : this.logger.line(message);
    switch (resolution.state) {
      case 'off':
        return undefined;
      case 'no-key':
        say(resolution.message);
        return undefined;
      case 'invalid': {
        const lines = resolution.errors.map((error) => error.message);
        say(`reporting is off: ${lines.join(' ')}`);
        if (resolution.failOnError)
          this.lastError = new TestrunError('TESTRUN_INVALID_OPTION', lines.join(' '));
        return undefined;
      }
      case 'enabled':
        break;
    }
    const { config } = resolution;
    this.logger.redact(config.apiKey);
    redactInAdapterLines(config.apiKey);
    if (this.init.watchMode && !config.watch) {
      say('watch mode: results are not reported. Set the watch option to true to report a run per rerun.');
      return undefined;
    }
    return config;
  }

  private createSession(config: ResolvedConfig): RunSession {
    const { env } = this;
    const { name, version } = this.init.framework;
    const service = openService({
      ...config,
      userAgent: userAgent(`${name}/${version}`),
      env,
      onAttempt: config.debug ? (line) => this.logger.line(line) : undefined,
    });
    return new RunSession({
      config,
      service,
      run: { project: config.project, framework: name, tags: config.tags },
      moreTags: config.ciTags && !config.runId ? ciTags(env, this.init.rootDir, this.init.shard) : undefined,
      log: (line) => this.logger.line(line),
    });
  }

  private toMappedResult(raw: RawResult, info: Omit<ResultInfo, 'framework'>): TestResult | null {
    const config = this.config!;
    const result = toResult(raw, config);
    if (!config.mapResult) return result;
    try {
      const mapped = config.mapResult(result, { ...info, framework: this.init.framework.name });
      if (mapped === null || mapped === undefined) return null;
      if (isThenable(mapped)) return this.refuseAsyncMapResult(mapped, result);
      return {
        testSuite: toName(mapped.testSuite),
        testCase: toName(mapped.testCase),
        status: typeof mapped.status === 'string' && mapped.status !== '' ? mapped.status : result.status,
        // Already in the configured unit: only cleaned (finite, non-negative), not converted.
        duration: toDuration(mapped.duration, 'ms'),
      };
    } catch (error) {
      this.logger.line(`mapResult threw (${(error as Error).message}); the result is sent unchanged.`);
      return result;
    }
  }

  /**
   * Results go out as the tests end, so mapResult must answer at once: a Promise (an `async`
   * function) is not waited for. Said once; each such result is sent unchanged, as when
   * mapResult throws, and the Promise's own failure is not left unhandled.
   */
  private refuseAsyncMapResult(promise: PromiseLike<unknown>, result: TestResult): TestResult {
    Promise.resolve(promise).catch(() => {});
    if (!this.asyncMapResultSaid) {
      this.asyncMapResultSaid = true;
      this.logger.line(
        'mapResult returned a Promise; it must return the result itself (not an async function). Results are sent unchanged.',
      );
    }
    return result;
  }

  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.logger.line(`internal error, results may be incomplete: ${(error as Error).message}`);
    }
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown }).then === 'function';
}
