import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ciTags,
  type Extension,
  endRun,
  formatRunHandle,
  gatherRun,
  Logger,
  openService,
  type ResolvedConfig,
  RunReporter,
  resolveConfig,
  reusedRunKeyLine,
  runVerdict,
  SUMMARY_PARTS_VAR,
  startDir,
  userAgent,
  writeRunSummary,
} from '@testrun/core';
import { CAPABILITY_LABELS_VAR, capabilityIndex, capabilityLabels, labelsFromEnv } from './capabilities.js';
import { pathOf } from './map-events.js';
import { testrunOptions } from './reporter.js';
import { webdriverioVersion } from './running-webdriverio.js';
import { clearMark, readMark, readMarks, STARTED_WORKERS_VAR, workerEnd } from './worker-marks.js';

/** The reporter's names in `reporters`: its options are the launcher's too. */
const REPORTER_NAMES = new Set(['@testrun/webdriverio']);

/** The options given to the reporter in the WebdriverIO configuration's `reporters`. */
export function reporterOptionsIn(config: unknown): Record<string, unknown> {
  const reporters = (config as { reporters?: unknown } | undefined)?.reporters;
  for (const entry of Array.isArray(reporters) ? reporters : []) {
    const [name, options] = Array.isArray(entry) ? entry : [entry, {}];
    const named = typeof name === 'string' ? name : (name as { name?: string } | undefined)?.name;
    if (named && (REPORTER_NAMES.has(named) || named === 'TestrunWebdriverioReporter')) {
      return testrunOptions(options);
    }
  }
  return {};
}

/**
 * The launcher service (`services: ['@testrun/webdriverio/service']`): runs in the `wdio`
 * process, once per `wdio run`, around every worker. `onPrepare` creates the run and hands
 * it to the workers as TESTRUN_RUN_ID in the environment they are started with, as
 * `testrun create-run` does for shards: its id and what the service announced, so every
 * worker sends why its tests failed where the service takes it; with it, the labels of the
 * capabilities, so that each worker names its results by its capability when there are
 * several. `onComplete` completes the run it created, after the last worker, where the
 * service announced it (`completeRun: 'auto'`) or `completeRun` asks. Options: the reporter's (from `reporters`),
 * then the service's own. A run id already set (a CI job's `testrun create-run`) is used as
 * it is, and left to whoever created it to complete. Before all that, it sets TESTRUN_RUN_KEY,
 * create-run's idempotency key, for itself and the workers: when it could not create the run,
 * the workers' own create-runs, live or replayed from the spool, still make one run.
 * Never throws into WebdriverIO.
 */
export class TestrunLauncher {
  private readonly options: Record<string, unknown>;
  /** The run this service created, and what the service announced when it did: this service ends it. */
  private created:
    | {
        runId: string;
        config: ResolvedConfig;
        extensions: Extension[];
        pageUrl: string | undefined;
        startedAt: number;
        /** Where the workers leave what they sent, for the CI summary (run-end/summary-hand-off.ts). */
        partsDir: string | undefined;
      }
    | undefined;
  /** The service's lines, with the API key redacted once the options are read (the environment's from the start). */
  private readonly logger = new Logger();
  /** Whether this service failed a spec file of a worker that died: the run then holds a failed result. */
  private failedFiles = false;
  private workersStarted = 0;

  constructor(serviceOptions: unknown = {}, _capabilities?: unknown, config?: unknown) {
    this.options = { ...reporterOptionsIn(config), ...testrunOptions(serviceOptions) };
    this.logger.redact(process.env.TESTRUN_API_KEY?.trim());
  }

  async onPrepare(_config: unknown, capabilities: unknown): Promise<void> {
    try {
      process.env[CAPABILITY_LABELS_VAR] = JSON.stringify(capabilityLabels(capabilities));
      process.env[STARTED_WORKERS_VAR] = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-wdio-'));
      // Before anything can fail: with the run not created here (the service down, a refused
      // key), every worker creates it, or spools its creation, under this one key, so they
      // and a later replay name one run, not one each. A key the user gave is theirs.
      if (this.options.runKey === undefined && !process.env.TESTRUN_RUN_KEY?.trim()) {
        process.env.TESTRUN_RUN_KEY = randomUUID();
      }
      const resolution = resolveConfig({ options: this.options, env: process.env, rootDir: startDir });
      // Off, unconfigured or invalid: each worker's reporter says so itself.
      if (resolution.state !== 'enabled' || resolution.config.runId) return;
      const { config } = resolution;
      this.logger.redact(config.apiKey);
      const service = openService({ ...config, userAgent: userAgent('webdriverio'), env: process.env });
      service.deadline.start(config.flushTimeout);
      try {
        const moreTags = config.ciTags ? await ciTags(process.env, startDir) : [];
        const run = { project: config.project, framework: 'webdriverio', tags: config.tags };
        // The workers' key: were this request stored and its answer lost, they still find this run.
        const outcome = await service.createRun(run, config.runKey ?? randomUUID(), { moreTags });
        if (outcome.kind === 'ok') {
          // A key the user gave (a constant, an id a re-run keeps) that named a run before.
          if (outcome.replayed) this.logger.line(reusedRunKeyLine(outcome.runId));
          process.env.TESTRUN_RUN_ID = formatRunHandle(
            outcome.runId,
            outcome.extensions,
            outcome.attachmentLimits,
          );
          // The workers' reporters leave what they sent there, for the summary this service writes.
          const partsDir =
            config.summary === false
              ? undefined
              : fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-wdio-summary-'));
          if (partsDir) process.env[SUMMARY_PARTS_VAR] = partsDir;
          this.created = {
            runId: outcome.runId,
            config,
            extensions: outcome.extensions,
            pageUrl: outcome.pageUrl,
            startedAt: Date.now(),
            partsDir,
          };
        } else {
          this.logger.line(
            `the run could not be created before the workers started (${outcome.error.message}): the workers create it under one key (TESTRUN_RUN_KEY), or spool it for \`npx @testrun/cli replay\`: still one run.`,
          );
        }
      } finally {
        await service.close();
      }
    } catch (error) {
      this.logger.line(`internal error in the launcher service: ${(error as Error).message}`);
    }
  }

  /** A worker starts (again, on a retry): it has not said it reports yet. */
  onWorkerStart(cid: string): void {
    this.workersStarted += 1;
    clearMark(cid);
  }

  /**
   * A worker ended. One that failed on its last attempt without its reporter's end reported
   * none of its files' ends: its spec files are each one `(file failed to run)`, sent from
   * here, saying why (worker-marks.ts): its session never started (the worker died before its
   * reporter heard of its files), or it died mid-run (the tests that ended before are stored).
   */
  async onWorkerEnd(
    cid: string,
    exitCode: number,
    specs: string[],
    retries: number,
    signal?: string,
  ): Promise<void> {
    try {
      const end = workerEnd(readMark(cid), exitCode, retries);
      if (end === 'reported') return;
      const how = howItEnded(exitCode, signal);
      const why =
        end === 'never-started'
          ? `the WebdriverIO worker ${cid} ${how} before it ran its spec files: its browser session did not start (WebdriverIO's output says why)`
          : `the WebdriverIO worker ${cid} ${how} before its spec files ended (a crash, an out-of-memory kill, process.exit or a signal): what ended before is reported`;
      const label = labelsFromEnv(process.env)[capabilityIndex(cid)];
      await this.report((run) => {
        for (const spec of specs ?? []) {
          run.addFile({
            file: pathOf(spec),
            tests: [],
            failedOutsideTests: true,
            failure: { errors: [why] },
            project: label ? { name: label } : undefined,
          });
        }
      });
      this.failedFiles = true;
    } catch (error) {
      this.logger.line(`internal error in the launcher service: ${(error as Error).message}`);
    }
  }

  /**
   * Results from the launcher itself, into the workers' run (TESTRUN_RUN_ID, or the workers'
   * key when the service could not create it).
   */
  private async report(add: (run: RunReporter) => void): Promise<void> {
    const labels = labelsFromEnv(process.env);
    const run = new RunReporter({
      options: this.options,
      framework: { name: 'webdriverio', version: webdriverioVersion() },
      rootDir: startDir,
      projectCount: labels.length || undefined,
      sharesRunKey: true,
    });
    if (!run.active) return;
    add(run);
    await run.endRun();
  }

  /**
   * WebdriverIO's verdict on the `wdio run`, and the failed result of the run that says why
   * where nothing else does, so that the run is never greener than the verdict: its exit code
   * failed it where no worker counted a failure and no spec file failed here (a hook or a
   * service of the configuration failed), or no worker ran at all, not even in a shard without
   * specs: WebdriverIO failed before the workers started (a driver it could not set up, a hook
   * that threw) and calls onComplete with 0 before it throws.
   */
  private async verdict(exitCode: number, config: unknown): Promise<'completed' | 'failed'> {
    const shard = (config as { shard?: { total?: unknown } } | undefined)?.shard;
    const noSpecsInShard = typeof shard?.total === 'number' && shard.total > 1;
    if (this.workersStarted === 0 && !noSpecsInShard) {
      await this.report((run) =>
        run.addRunErrors([
          `WebdriverIO ended before it ran any spec file (exit code ${exitCode}): an error before the workers started; its output says which`,
        ]),
      );
      return 'failed';
    }
    if (exitCode === 0) return 'completed';
    if (!this.failedFiles && !readMarks().some((mark) => mark?.ended && mark.failures > 0)) {
      await this.report((run) =>
        run.addRunErrors([
          `WebdriverIO exited with code ${exitCode} and no spec file reported a failure: a failure outside the specs (a hook or a service of the configuration); its output says which`,
        ]),
      );
    }
    return 'failed';
  }

  /**
   * Ends the run this service created (run-end/end-run.ts decides how and whether the service
   * is told): `failed` when WebdriverIO's verdict says so (`verdict`).
   */
  async onComplete(exitCode: number, config?: unknown): Promise<void> {
    let failedHere = exitCode !== 0;
    try {
      failedHere = (await this.verdict(exitCode, config)) === 'failed';
    } catch (error) {
      this.logger.line(`internal error in the launcher service: ${(error as Error).message}`);
    }
    const marks = process.env[STARTED_WORKERS_VAR];
    if (marks) fs.rmSync(marks, { recursive: true, force: true });
    const created = this.created;
    if (!created) return;
    try {
      const { runId, config, extensions, partsDir } = created;
      const agent = userAgent('webdriverio');
      const gathered =
        config.summary === false
          ? undefined
          : await gatherRun({ config, runId, extensions, partsDir, userAgent: agent });
      const failedResults = (gathered?.tally.failedCount ?? 0) > 0;
      const { status } = runVerdict({ exitCode, failedResults, runner: { failed: failedHere } });
      const ended = await endRun({ config, runId, extensions, status, userAgent: agent });
      if (ended.state === 'sent') this.logger.line(`run ${runId} marked ${status}`);
      else if (ended.state === 'refused' || ended.state === 'unsent') {
        this.logger.line(`the run ${runId} could not be completed: ${ended.error.message}`);
      }
      if (gathered) {
        const run = {
          project: config.project,
          framework: 'webdriverio',
          runId,
          pageUrl: created.pageUrl ?? gathered.pageUrl,
          state: status,
          durationMs: Date.now() - created.startedAt,
        };
        await writeRunSummary(config, run, gathered, (line) => this.logger.line(line));
      }
      if (partsDir) fs.rmSync(partsDir, { recursive: true, force: true });
    } catch (error) {
      this.logger.line(`internal error in the launcher service: ${(error as Error).message}`);
    }
  }
}

/** How a worker ended: by a signal (given, or told by its exit code, 128 + the signal's number), else its exit code. */
function howItEnded(exitCode: number, signal: string | undefined): string {
  const told = Object.entries(os.constants.signals).find(([, number]) => exitCode === 128 + number)?.[0];
  if (signal) return `was ended by ${signal}`;
  if (told) return `was ended by ${told} (exit code ${exitCode})`;
  return `exited with code ${exitCode}`;
}
