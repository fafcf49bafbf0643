import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  type AttachmentLimits,
  ciTags,
  type EndRunOutcome,
  type Extension,
  endRun,
  formatRunHandle,
  type GatheredRun,
  gatherRun,
  loadQuarantine,
  loadSummary,
  openService,
  QUARANTINE_EXTENSION,
  type ResolvedConfig,
  resolveConfig,
  runVerdict,
  SUMMARY_PARTS_VAR,
  type TestrunOptions,
  userAgent,
  writeRunSummary,
} from '@testrun/core';
import type { Output } from '../command.js';
import { notOneRunner } from './one-runner.js';
import type { CommandEnd } from './run-command.js';

// The run around `testrun run`'s command: created before it, ended after it by its verdict,
// summarized (docs/design/testrun-run.md). Nothing here may keep the command from running as it
// would without testrun: every problem is one line, and the command runs.

/** Creating the run waits at most this long before the command starts anyway (the reporters spool). */
export const CREATE_BEFORE_COMMAND_MS = 10_000;

const CANCEL_SIGNALS: ReadonlySet<string> = new Set(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

export interface RunAround {
  /** What the command's environment gets besides testrun's own: the run, and where reporters leave their parts. */
  env(partsDir: string): NodeJS.ProcessEnv;
  /**
   * After the command: its verdict, the run's end, the summary, a line that says so. Resolves
   * to the exit code testrun exits with: the command's own (the verdict's: the one place a
   * later rule may change it). Never rejects.
   */
  end(command: CommandEnd, partsDir: string): Promise<number>;
}

/** No run around the command (reporting off, no key, an invalid option, a run given): the command alone. */
const COMMAND_ALONE: RunAround = { env: () => ({}), end: async (command) => command.exitCode };

interface Created {
  runId: string;
  extensions: Extension[];
  /** The attachments' limits the service announced: the command's reporters keep to them. */
  attachmentLimits: AttachmentLimits | undefined;
  pageUrl: string | undefined;
}

export async function startRunAround({
  options,
  framework,
  output,
  command,
}: {
  options: TestrunOptions;
  framework: string;
  output: Output;
  /** The command line, program first: whether it is one test runner decides what quarantine may do. */
  command: readonly string[];
}): Promise<RunAround> {
  const started = performance.now();
  const resolution = resolveConfig({ options, env: process.env, rootDir: process.cwd() });
  switch (resolution.state) {
    case 'off':
      return COMMAND_ALONE;
    case 'no-key':
      output.error('TESTRUN_API_KEY is not set: the command runs without a run around it.');
      return COMMAND_ALONE;
    case 'invalid':
      for (const error of resolution.errors) output.error(error.message);
      output.error('the command runs without a run around it.');
      return COMMAND_ALONE;
    case 'enabled':
      break;
  }
  const { config } = resolution;
  output.redact(config.apiKey);
  if (config.runId !== undefined) {
    output.error(
      `reporting into run ${config.runId}, given by TESTRUN_RUN_ID: the job that created it ends it (testrun complete-run).`,
    );
    return COMMAND_ALONE;
  }
  const created = await createRun(config, framework, output);
  const log = (line: string) => output.error(line);
  const commandLine = command;
  return {
    env: (partsDir) => ({
      [SUMMARY_PARTS_VAR]: partsDir,
      ...(created
        ? { TESTRUN_RUN_ID: formatRunHandle(created.runId, created.extensions, created.attachmentLimits) }
        : {}),
    }),
    async end(command, partsDir) {
      try {
        const gathered = await gatherRun({
          config,
          runId: created?.runId,
          extensions: created?.extensions,
          partsDir,
          userAgent: userAgent('cli'),
          unreachable: !created,
        });
        const cancelled = command.cancelledBy !== undefined || CANCEL_SIGNALS.has(command.signal ?? '');
        const quarantine = created
          ? await judgeQuarantine({ created, command, cancelled, gathered, partsDir, commandLine })
          : undefined;
        const verdict = runVerdict({
          exitCode: command.exitCode,
          cancelled,
          failedResults: gathered.tally.failedCount > 0,
          quarantine,
        });
        if (quarantine?.line) output.error(quarantine.line);
        const ended = created
          ? await endRun({
              config,
              runId: created.runId,
              extensions: created.extensions,
              status: verdict.status,
              userAgent: userAgent('cli'),
            })
          : undefined;
        await writeRunSummary(
          config,
          {
            project: config.project,
            framework,
            runId: created?.runId,
            pageUrl: created?.pageUrl ?? gathered.pageUrl,
            state: created ? verdict.status : 'not created',
            durationMs: performance.now() - started,
          },
          gathered,
          log,
        );
        if (created && ended) output.error(endLine(created, ended, command, quarantine?.clears === true));
        return verdict.exitCode ?? command.exitCode;
      } catch (error) {
        output.error(`internal error while ending the run: ${(error as Error).message}`);
        return command.exitCode;
      }
    },
  };
}

/** Creates the run, within CREATE_BEFORE_COMMAND_MS; undefined, and one line, when it could not be. */
async function createRun(
  config: ResolvedConfig,
  framework: string,
  output: Output,
): Promise<Created | undefined> {
  const service = openService({ ...config, userAgent: userAgent('cli'), env: process.env });
  service.deadline.start(Math.min(config.flushTimeout, CREATE_BEFORE_COMMAND_MS));
  try {
    const moreTags = config.ciTags ? await ciTags(process.env, process.cwd()) : [];
    const run = { project: config.project, framework, tags: config.tags };
    const outcome = await service.createRun(run, config.runKey ?? randomUUID(), { moreTags });
    if (outcome.kind === 'ok') return outcome;
    output.error(
      `the run could not be created (${outcome.error.message}): the command runs as it would without testrun run (nothing is quarantined), and its reporters spool what they cannot send (npx @testrun/cli replay).`,
    );
    return undefined;
  } catch (error) {
    output.error(`internal error while creating the run: ${(error as Error).message}; the command runs.`);
    return undefined;
  } finally {
    await service.close();
  }
}

/**
 * What quarantine makes of the command's failures (docs/design/quarantine.md): read only where the
 * service announced quarantine and a test failed, from the verdict parts the command's
 * reporters left as their processes exited, the command line, and what the service stored.
 * Never throws: a problem keeps the command's exit code, and says so.
 */
async function judgeQuarantine({
  created,
  command,
  cancelled,
  gathered,
  partsDir,
  commandLine,
}: {
  created: Created;
  command: CommandEnd;
  cancelled: boolean;
  gathered: GatheredRun;
  partsDir: string;
  commandLine: readonly string[];
}): Promise<{ clears: boolean; line: string | undefined } | undefined> {
  if (!created.extensions.includes(QUARANTINE_EXTENSION) || gathered.tally.failedCount === 0)
    return undefined;
  try {
    const { commandQuarantine, readVerdictParts } = await loadQuarantine();
    const { readParts } = await loadSummary();
    const reporterPids = readParts(partsDir).flatMap((part) => (part.pid === undefined ? [] : [part.pid]));
    const { tally, covers } = gathered;
    return commandQuarantine({
      exitCode: command.exitCode,
      cancelledOrNotRun: cancelled || command.signal !== undefined || command.notStarted !== undefined,
      notOneRunner: notOneRunner(commandLine, process.cwd()),
      verdicts: readVerdictParts(partsDir),
      reporterPids,
      stored: covers.whole ? { failed: tally.failedCount, quarantined: tally.quarantinedCount } : undefined,
    });
  } catch (error) {
    return {
      clears: false,
      line: `internal error while judging quarantined tests; the command's exit code stands: ${(error as Error).message}`,
    };
  }
}

/** `run 8f3c… marked failed (the command exited 1) http://…/runs/8f3c…` */
function endLine(created: Created, ended: EndRunOutcome, command: CommandEnd, cleared: boolean): string {
  const how = command.signal
    ? `the command ended by ${command.signal}`
    : cleared && command.exitCode !== 0
      ? `the command exited ${command.exitCode} for quarantined tests alone: testrun run exits 0`
      : `the command exited ${command.exitCode}`;
  const page = created.pageUrl ? ` ${created.pageUrl}` : '';
  switch (ended.state) {
    case 'sent':
      return `run ${created.runId} marked ${ended.status} (${how})${page}`;
    case 'not-announced':
      return `run ${created.runId} ended ${ended.status} (${how}); the service does not announce completing runs, so it was not told${page}`;
    case 'off':
      return `run ${created.runId} ended ${ended.status} (${how}); completeRun is false, so the service was not told${page}`;
    default:
      return `run ${created.runId} ended ${ended.status} (${how}), but the service was not told: ${ended.error.message}${page}`;
  }
}
