import { AttachedFiles } from './attachments/attached-files.js';
import { clearTimeout, setTimeout, withRealTaskQueues } from './clock.js';
import { Batcher } from './delivery/batcher.js';
import { openService } from './delivery/service.js';
import { TestrunError } from './errors.js';
import { keepExitGuard, onProcessExit, type ProcessEnd, receivedSignal } from './exit-guard.js';
import { lineOnce, redactInAdapterLines } from './hooks.js';
import { ciTags, type Shard } from './options/ci-tags.js';
import { type ConfigResolution, type ResolvedConfig, resolveConfig } from './options/config.js';
import { defaultPlanKey } from './options/plan-key.js';
import { Logger } from './output/logger.js';
import { type SecretPattern, secretPattern } from './output/redact.js';
import { countOf, formatCount, formatMs, formatSummary, replayCommand } from './output/summary.js';
import { configuredShard, shardHeaders } from './plan/shard-headers.js';
import type { QuarantineOutcome } from './quarantine/index.js';
import { filesOf } from './results/attached-files.js';
import { createResultMapper, type ResultMapper, type ResultSource } from './results/map-result.js';
import { runErrorResult } from './results/result-name.js';
import { RunResults } from './results/run-results.js';
import { verdictFails } from './results/runner-verdict.js';
import { endsItsRun } from './run-end/end-run.js';
import { leaveVerdictPart, loadQuarantine, QuarantineHandOff } from './run-end/quarantine-hand-off.js';
import { SummaryFeed, summaryPartsDir } from './run-end/summary-hand-off.js';
import { RunSession } from './run-session.js';
import type { DeliverySummary, FileReport, RawResult, RunnerVerdict, TestResult } from './types.js';
import { userAgent } from './version.js';

export interface RunReporterInit {
  /** The user's reporter options, unchecked: they are validated here. */
  options: unknown;
  framework: { name: string; version: string };
  /** The framework's root directory: test files are named relative to it (see result-name.ts). */
  rootDir: string;
  /**
   * How many projects the framework's configuration defines; `projectLabel: 'auto'` labels
   * results when above 1. A function when the adapter learns it only after the run started
   * (TestCafe tells its browsers after it made its reporters): read for each file.
   */
  projectCount?: number | (() => number | undefined);
  env?: NodeJS.ProcessEnv;
  /** Where lines go; stderr by default. */
  write?: (text: string) => void;
  watchMode?: boolean;
  shard?: Shard;
  /**
   * The run key (`runKey`) is shared with sibling processes by design, as WebdriverIO's launcher
   * shares it with its workers: a create-run answered from the key's earlier use is expected.
   */
  sharesRunKey?: boolean;
  /**
   * Called synchronously when the process exits before the run ended, before core spools what
   * it holds: hand core (`addFile`) the finished tests the adapter still holds, such as those
   * of a file that was still running (Playwright reports files once all their tests ended).
   */
  flushOnExit?: () => void;
  /**
   * The runner takes its verdict from this reporter (Playwright's `onEnd` may return a status,
   * Mocha's exit code is what its reporter's `done` hands back):
   * a run whose every failure is a quarantined test's, and whose runner failed it for those
   * alone (`RunnerVerdict.failedByTestsAlone`), then passes in the process, and its run ends
   * completed (`DeliverySummary.quarantine.passes`; docs/design/quarantine.md).
   */
  decidesVerdict?: boolean;
  /**
   * The results come from a report of a run that has ended (`testrun upload`): quarantine marks
   * them, and its line says which failures were quarantined, not what the build does.
   */
  fromReport?: boolean;
}

/** What quarantine made of a run's failures in this process, for its verdict part and its line. */
interface QuarantineJudgement {
  outcome: QuarantineOutcome;
  /** Every failure a quarantined test's, and the runner vouched for nothing else. */
  clears: boolean;
  /** …and the runner takes its verdict from this reporter: the run passes here. */
  passes: boolean;
  testsAlone: boolean;
  doubt: string | undefined;
}

/** Said once, where files were attached to a run whose id came alone. */
export const BARE_RUN_ID_LINE =
  'attached files were not uploaded: TESTRUN_RUN_ID is a bare run id, so whether its service takes files is not known. Give it as `testrun create-run` prints it (with its ";extensions=…"), docs/attachments.md.';

/** One run from `startRun` to the end of `endRun`: its results stage, session, batcher and exit guard. */
interface ActiveRun {
  /** What this run's reports become (results/run-results.ts); it remembers what naming needs per run. */
  results: RunResults;
  session: RunSession;
  batcher: Batcher;
  /** The run's attached files, from the first result that has some (loaded then: attached-files.ts). */
  files: AttachedFiles | undefined;
  /** What it sends, tallied for the CI summary, when one is written (run-end/summary-hand-off.ts). */
  feed: SummaryFeed | undefined;
  stopExitGuard: () => void;
  /** Failed results handed on. */
  failures: number;
  /** Made at the first failed result (run-end/quarantine-hand-off.ts). */
  quarantine: QuarantineHandOff | undefined;
  /** What quarantine made of the failures, once the run's end judged them. */
  judged: QuarantineJudgement | undefined;
  /** The run's end hook finished. */
  ended: boolean;
  /**
   * Set once `endRun` began, to its outcome: results that still arrive go to the session
   * directly, never to a new run, and a second `endRun` waits for the same end.
   */
  ending: Promise<DeliverySummary | undefined> | undefined;
}

/**
 * The framework-neutral half of every reporter: a run's lifecycle. Adapters call `startRun`,
 * `addFile` (or `addResults` for results already named), `addRunErrors` and `endRun`; what
 * those become is the results stage's (results/run-results.ts), what happens to them the
 * batcher's and the session's. Everything here catches its own errors, because a reporter
 * that throws turns a green build red.
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
  /** Cleans each result and applies mapResult; one for every run of this reporter. */
  private readonly mapper: ResultMapper | undefined;
  /** The run results go to: the current one, or the one that ended last (late results are spooled in its name). */
  private run: ActiveRun | undefined;
  /** Results of this run handed to delivery: what failOnError compares the delivered count with. */
  private added = 0;
  private lastError: TestrunError | undefined;
  private lastErrorPrinted = false;
  private readonly failOnErrorSet: boolean;
  /** The API key's forms: a test that prints it in an assertion never sends it as why it failed. */
  private readonly secrets: SecretPattern | undefined;
  /** A verdict part is left as the process exits (inside `testrun run`): the listener, once. */
  private leavesVerdict = false;

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
    this.secrets = this.config && secretPattern([this.config.apiKey]);
    this.mapper =
      this.config &&
      createResultMapper({
        ...this.config,
        framework: init.framework.name,
        log: (line) => this.logger.line(line),
      });
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
      const { rootDir, projectCount } = this.init;
      const naming = {
        rootDir,
        projectCount,
        projectLabel: config.projectLabel,
        failureDetails: config.failureDetails !== 'never',
        attachments: config.attachments,
        secrets: this.secrets,
        framework: this.init.framework.name,
      };
      const results = new RunResults(naming, this.mapper!);
      const session = this.createSession(config);
      const batcher = new Batcher(config.batchSize, config.flushInterval, (batch) => session.send(batch));
      const feed = SummaryFeed.for(config, this.env);
      const run: ActiveRun = {
        results,
        session,
        batcher,
        files: undefined,
        feed,
        ending: undefined,
        stopExitGuard: () => {},
        failures: 0,
        quarantine: undefined,
        judged: undefined,
        ended: false,
      };
      run.stopExitGuard = onProcessExit((end) => this.spoolOnExit(run, end));
      this.run = run;
      this.leaveVerdictOnExit();
      session.start();
    });
  }

  /** One test file's tests, named by the identity rules (results/run-results.ts). */
  addFile(report: FileReport): void {
    if (!this.config) return;
    this.guard(() => {
      const run = this.currentRun();
      if (run) this.deliver(run, run.results.ofFile(report));
    });
  }

  /** Errors the framework reports outside any test and file: a few failed `(run)` results. */
  addRunErrors(messages: readonly unknown[]): void {
    if (!this.config || messages.length === 0) return;
    this.guard(() => {
      const run = this.currentRun();
      if (run) this.deliver(run, run.results.ofRunErrors(messages));
    });
  }

  addResults(results: readonly RawResult[], source: ResultSource = {}): void {
    if (!this.config) return;
    this.guard(() => {
      const run = this.currentRun();
      if (run) this.deliver(run, run.results.ofNamed(results, source));
    });
  }

  /** The run results go to, started if none was: an adapter may hand a file over first. */
  private currentRun(): ActiveRun | undefined {
    if (!this.run) this.startRun();
    return this.run;
  }

  private deliver(run: ActiveRun, results: TestResult[]): void {
    keepExitGuard();
    this.added += results.length;
    // Tallied as they come, those whose files are still being hashed too: the summary counts every result.
    run.feed?.add(results);
    this.watchFailures(run, results);
    this.send(run, this.withoutHeldFiles(run, results));
  }

  private send(run: ActiveRun, results: TestResult[]): void {
    // A file that ends while the run's end is delivering (Jest --bail, a slow service) still
    // belongs to this run: its session delivers it within the deadline, or spools it.
    if (run.ending) {
      if (results.length > 0) run.session.send(results);
    } else {
      run.batcher.add(results);
    }
  }

  /**
   * The results that can go now: those with attached files wait for their hashes in the run's
   * attachments stage, which sends them on (docs/design/attachments.md).
   */
  private withoutHeldFiles(run: ActiveRun, results: TestResult[]): TestResult[] {
    // A service known not to take files: the results go as they did before files existed.
    if (run.session.takesFiles === false) {
      if (
        this.config?.runId !== undefined &&
        this.config.runExtensions === undefined &&
        results.some(filesOf)
      ) {
        run.session.say(BARE_RUN_ID_LINE);
      }
      return results;
    }
    let ready: TestResult[] | undefined;
    for (const [index, result] of results.entries()) {
      const files = filesOf(result);
      if (!files) {
        ready?.push(result);
        continue;
      }
      ready ??= results.slice(0, index);
      run.files ??= new AttachedFiles({
        session: run.session,
        config: this.config!,
        deliver: (sent) => this.guard(() => this.send(run, sent)),
      });
      run.files.add([{ result, files }]);
    }
    return ready ?? results;
  }

  /**
   * Delivers what is left within flushTimeout and prints the summary line; with
   * failOnError, also the reason the run is failed. `verdict`: what the runner says of the
   * run beside its results (it failed outside every test, it was interrupted), for how the
   * run ends (`completeRun`). Never rejects.
   */
  async endRun(
    notes: readonly string[] = [],
    verdict: RunnerVerdict = {},
  ): Promise<DeliverySummary | undefined> {
    const run = this.run;
    let summary: DeliverySummary | undefined;
    if (run && this.config) {
      // Jest with --bail calls its end hook twice: once at the bail, once when the files
      // still running have ended. The second waits for the first, so Jest does not exit
      // while the run is still delivering.
      const config = this.config;
      // A test may have faked the task queues and never restored them: the run's last
      // requests are made with the real ones (clock.ts).
      run.ending ??= withRealTaskQueues(() => this.end(run, config, notes, verdict));
      summary = await run.ending;
    }
    if (this.lastError && !this.lastErrorPrinted) {
      this.lastErrorPrinted = true;
      this.logger.line(`failing the test run because failOnError is set: ${this.lastError.message}`);
    }
    return summary;
  }

  private async end(
    run: ActiveRun,
    config: ResolvedConfig,
    notes: readonly string[],
    verdict: RunnerVerdict,
  ) {
    this.guard(() => run.session.runnerSaid({ ...verdict, failed: verdictFails(verdict) }));
    // Before `ending` is set: these results still go through the batcher. A run the runner
    // failed holds a failed result saying why (results/runner-verdict.ts).
    this.guard(() => {
      const said = [...run.results.ofVerdict(verdict), ...run.results.ofUncountedRunErrors()];
      if (said.length > 0) this.deliver(run, said);
    });
    // A cancelled job whose framework ends the run itself (Playwright on SIGINT): what is
    // not delivered yet goes to the spool at once, so the process ends as soon as it would
    // have without the reporter, not after flushTimeout.
    if (receivedSignal()) this.guard(() => run.session.spoolNow(run.batcher.take()));
    else this.guard(() => run.batcher.flush());
    run.judged = await this.judgeQuarantine(run, config, verdict);
    const summary = await this.finish(run.session, config, notes);
    if (summary && run.judged) {
      const { outcome, passes } = run.judged;
      summary.quarantine = { passes, quarantined: outcome.quarantinedCount, failures: outcome.failures };
    }
    if (summary && run.judged) await this.sayQuarantine(run.judged);
    if (summary && run.feed) await this.handOffSummary(run.feed, summary, config, run);
    run.stopExitGuard();
    run.ended = true;
    return summary;
  }

  /** A run's first failed result starts its quarantine (run-end/quarantine-hand-off.ts): nothing loads before. */
  private watchFailures(run: ActiveRun, results: readonly TestResult[]): void {
    const failed = this.config!.statusMap.failed;
    let failures = 0;
    for (const result of results) if (result.status === failed) failures += 1;
    if (failures === 0 && !run.quarantine) return;
    run.failures += failures;
    run.quarantine ??= new QuarantineHandOff(run.session, failed);
    run.quarantine.add(results);
  }

  /**
   * What the run's failures were against its quarantine list, waiting for the list at most
   * flushTimeout; and whether that clears the run (every failure quarantined, the runner
   * vouching for nothing else) and passes it here (the runner takes its verdict from us).
   */
  private async judgeQuarantine(
    run: ActiveRun,
    config: ResolvedConfig,
    verdict: RunnerVerdict,
  ): Promise<QuarantineJudgement | undefined> {
    if (!run.quarantine) return undefined;
    try {
      let timer: NodeJS.Timeout | undefined;
      const giveUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, config.flushTimeout);
      });
      const late = `the quarantine list did not come within ${formatMs(config.flushTimeout)}`;
      const outcome = await run.quarantine.outcome(giveUp, late).finally(() => clearTimeout(timer));
      if (!outcome) return undefined;
      const { everyFailureQuarantined } = await loadQuarantine();
      const runner = this.init.framework.name;
      const testsAlone = verdict.failedByTestsAlone === true && verdict.interrupted !== true;
      const doubt = testsAlone
        ? undefined
        : (verdict.notTestsAlone ??
          (verdict.interrupted
            ? `${runner} was interrupted`
            : `testrun cannot tell that ${runner} fails the run for its failed tests alone`));
      const clears = everyFailureQuarantined(outcome) && testsAlone;
      const passes = clears && this.init.decidesVerdict === true;
      this.guard(() => run.session.quarantineSaid({ clears: passes }));
      return { outcome, clears, passes, testsAlone, doubt };
    } catch (error) {
      this.logger.line(
        `internal error while judging quarantined tests; nothing is quarantined: ${(error as Error).message}`,
      );
      return undefined;
    }
  }

  /**
   * The quarantine line of a run this process reports alone; inside `testrun run` its line is
   * testrun run's, from every process's part.
   */
  private async sayQuarantine(judged: QuarantineJudgement): Promise<void> {
    if (summaryPartsDir(this.env)) return;
    try {
      const { reporterLine } = await loadQuarantine();
      const said = reporterLine(judged.outcome, {
        passes: judged.passes,
        decides: this.init.decidesVerdict === true,
        doubt: judged.doubt,
        runner: this.init.fromReport ? undefined : this.init.framework.name,
      });
      if (said) this.logger.line(said);
    } catch {
      // A line not said changes nothing.
    }
  }

  /**
   * Inside `testrun run`, this process leaves a verdict part as it exits: how it ended and
   * what its failures were against the quarantine list (run-end/quarantine-hand-off.ts).
   * `testrun run` passes its command only on what every such part says.
   */
  private leaveVerdictOnExit(): void {
    const dir = summaryPartsDir(this.env);
    if (!dir || this.leavesVerdict) return;
    this.leavesVerdict = true;
    process.once('exit', (code) => {
      const run = this.run;
      if (!run) return;
      const judged = run.judged;
      leaveVerdictPart(dir, {
        pid: process.pid,
        exitCode: typeof code === 'number' ? code : Number(process.exitCode ?? 0),
        runner: this.init.framework.name,
        ended: run.ended,
        failures: run.failures,
        outcome: judged?.outcome,
        testsAlone: judged?.testsAlone ?? false,
        doubt: judged?.doubt,
      });
    });
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

  /** The CI summary of the run this reporter ended, or its part for the process that ends it. */
  private async handOffSummary(
    feed: SummaryFeed,
    summary: DeliverySummary,
    config: ResolvedConfig,
    run: ActiveRun,
  ) {
    const { runId, pageUrl, delivered, spooled, spoolFile } = summary;
    const { judged, quarantine } = run;
    if (judged && quarantine && judged.outcome.quarantinedCount > 0) {
      feed.markQuarantined(
        (testSuite, testCase) => quarantine.isQuarantined(testSuite, testCase),
        judged.outcome.quarantinedCount,
      );
    }
    await feed.finish(
      {
        project: config.project,
        framework: this.init.framework.name,
        runId,
        pageUrl,
        state: runId === undefined ? 'not created' : (summary.verdict ?? 'completed'),
        durationMs: undefined,
      },
      { runId, delivered, spooled, spoolFile },
      endsItsRun(config),
      (line) => this.logger.line(line),
    );
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
        const exited = run.results.ofNamed([runErrorResult(`${why} before the run ended`)], {});
        buffered.push(...exited);
        run.feed?.add(exited);
      }
      // A run whose tests had ended (its end hook began) ends as they say, unless a signal came.
      const spooled = session.spoolNow(buffered, { interrupted: 'signal' in end || !run.ending });
      const file = session.spoolFile;
      run.feed?.finishNow({ runId: session.id, delivered: session.delivered, spooled, spoolFile: file });
      const runEnd = session.runEndSpooled;
      if ((spooled === 0 && !runEnd) || !file) return;
      const endNote = runEnd ? `the run's end (${runEnd})` : '';
      const what =
        spooled > 0 ? [countOf(spooled, 'result'), endNote].filter(Boolean).join(' and ') : endNote;
      this.logger.line(
        `${why} before the run's ${spooled > 0 ? 'results were delivered' : 'end was sent'}: ${what} spooled to ${file}: send ${spooled > 0 ? 'them' : 'it'} with \`${replayCommand(file)}\``,
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
    const shard = this.init.shard ?? configuredShard(config);
    const service = openService({
      ...config,
      userAgent: userAgent(`${name}/${version}`),
      env,
      onAttempt: config.debug ? (line) => this.logger.line(line) : undefined,
      headers: shard && shardHeaders(shard, config.planKey ?? defaultPlanKey(env, config.runId)),
    });
    return new RunSession({
      config,
      service,
      run: { project: config.project, framework: name, tags: config.tags },
      moreTags: config.ciTags && !config.runId ? ciTags(env, this.init.rootDir, shard) : undefined,
      log: (line) => this.logger.line(line),
      sharesRunKey: this.init.sharesRunKey,
    });
  }

  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.logger.line(`internal error, results may be incomplete: ${(error as Error).message}`);
    }
  }
}
