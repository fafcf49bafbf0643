import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  COMPLETE_RUN_EXTENSION,
  type CompleteRunRequest,
  ciTags,
  completeRun,
  completionRequest,
  formatRunHandle,
  Logger,
  openService,
  type ResolvedConfig,
  RunReporter,
  resolveConfig,
  reusedRunKeyLine,
  startDir,
  userAgent,
} from '@testrun/core';
import { CAPABILITY_LABELS_VAR, capabilityIndex, capabilityLabels, labelsFromEnv } from './capabilities.js';
import { pathOf } from './map-events.js';
import { STARTED_WORKERS_VAR, testrunOptions } from './reporter.js';
import { webdriverioVersion } from './running-webdriverio.js';

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
  /** The run this service created, and the request that completes it, if it is to be completed. */
  private created:
    | { runId: string; config: ResolvedConfig; completion: CompleteRunRequest | undefined }
    | undefined;
  /** The service's lines, with the API key redacted once the options are read (the environment's from the start). */
  private readonly logger = new Logger();

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
          const announced = outcome.extensions.includes(COMPLETE_RUN_EXTENSION);
          const completion = completionRequest(config.completeRun, announced);
          this.created = { runId: outcome.runId, config, completion };
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
    try {
      fs.rmSync(startedMark(cid), { force: true });
    } catch {}
  }

  /**
   * A worker ended. One that failed before its reporter heard of its spec files (the browser
   * session did not start, and WebdriverIO's worker died of it before `runner:start`) reported
   * nothing: its spec files are each one `(file failed to run)`, sent from here, unless
   * WebdriverIO runs them again.
   */
  async onWorkerEnd(cid: string, exitCode: number, specs: string[], retries: number): Promise<void> {
    try {
      if (exitCode === 0 || retries > 0 || fs.existsSync(startedMark(cid))) return;
      const labels = labelsFromEnv(process.env);
      const label = labels[capabilityIndex(cid)];
      const run = new RunReporter({
        options: this.options,
        framework: { name: 'webdriverio', version: webdriverioVersion() },
        rootDir: startDir,
        projectCount: labels.length || undefined,
        sharesRunKey: true,
      });
      if (!run.active) return;
      for (const spec of specs ?? []) {
        run.addFile({
          file: pathOf(spec),
          tests: [],
          failedOutsideTests: true,
          project: label ? { name: label } : undefined,
        });
      }
      await run.endRun();
    } catch (error) {
      this.logger.line(`internal error in the launcher service: ${(error as Error).message}`);
    }
  }

  /** Completes the run this service created, where it is to be completed: `failed` when the run's exit code says so. */
  async onComplete(exitCode: number): Promise<void> {
    const marks = process.env[STARTED_WORKERS_VAR];
    if (marks) fs.rmSync(marks, { recursive: true, force: true });
    const created = this.created;
    if (!created?.completion) return;
    try {
      const { runId, config, completion } = created;
      const service = openService({ ...config, userAgent: userAgent('webdriverio'), env: process.env });
      service.deadline.start(config.flushTimeout);
      try {
        const status = exitCode === 0 ? 'completed' : 'failed';
        const outcome = await completeRun(
          service.http,
          runId,
          completion,
          status,
          randomUUID(),
          config,
          service.deadline,
        );
        if (outcome.kind === 'ok') this.logger.line(`run ${runId} marked ${status}`);
        else this.logger.line(`the run ${runId} could not be completed: ${outcome.error.message}`);
      } finally {
        await service.close();
      }
    } catch (error) {
      this.logger.line(`internal error in the launcher service: ${(error as Error).message}`);
    }
  }
}

/** The file a worker's reporter leaves when it heard of its spec files (runner:start). */
function startedMark(cid: string): string {
  return path.join(process.env[STARTED_WORKERS_VAR] ?? '', String(cid).replace(/[^\w-]/g, '_'));
}
