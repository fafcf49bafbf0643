import type { Deadline } from '../delivery/deadline.js';
import { type RetryPolicy, sendWithRetries } from '../delivery/send-with-retries.js';
import { openService } from '../delivery/service.js';
import { COMPLETE_RUN_EXTENSION, type Extension } from '../extensions.js';
import type { HttpClient } from '../http/client.js';
import {
  type CompleteRunChoice,
  type CompleteRunRequest,
  DEFAULT_COMPLETE_RUN,
  fillBody,
  fillPath,
  type RunEndStatus,
} from '../options/complete-run-request.js';
import type { ResolvedConfig } from '../options/config.js';
import { randomUUID } from '../random-uuid.js';
import { verdictFails } from '../results/runner-verdict.js';
import type { RunnerVerdict } from '../types.js';

// Ending a run, in one place for every process that ends one (docs/design/run-end.md): a reporter
// that created its run (run-session.ts, which spools what it cannot send), `testrun
// replay` sending an end a reporter spooled (spool/replay.ts), and, through `endRun`, `testrun run`,
// `testrun complete-run` and WebdriverIO's launcher. Four decisions are taken here and nowhere
// else:
//
//   1. who ends a run: `endsItsRun`;
//   2. how it ended: `runVerdict`, the one decision a later rule (quarantine) extends;
//   3. whether the service is told, and with which request: `endRequest`;
//   4. what the service's answer means: `sendRunEnd` (sent, refused for good, or not yet).
//
// Whatever must reach the service before the run is complete (its results, its attached
// files) is delivered before `sendRunEnd` is called: in a reporter, RunSession.drain sends the
// end only once every batch is delivered and the work beside them (the attachments' uploads,
// `holdEndFor`) has settled and delivered; replay sends a spooled end only once its file's
// batches and files are sent; the processes that call `endRun` do so after the reporters that
// uploaded into the run have ended (each of which waited for its own uploads).

/**
 * What a process knows of how a run went when it ends it. Each field is evidence from one
 * place; `runVerdict` weighs them.
 */
export interface RunEvidence {
  /** A result went out with the failed status (`statusMap.failed`). */
  failedResults?: boolean;
  /** What the runner said of the run beside its results (an adapter's `endRun` verdict). */
  runner?: RunnerVerdict;
  /** The run was cancelled: a signal, or the process exited before the run ended. */
  cancelled?: boolean;
  /**
   * The exit code of the command the run was made for (`testrun run`, WebdriverIO's `wdio`),
   * 128 + n when a signal ended it: anything but 0 fails the run.
   */
  exitCode?: number;
  /**
   * What quarantine found (docs/design/quarantine.md): `clears` when every failure was a quarantined
   * test's and nothing else failed, as the process that knows it decided (a reporter whose
   * runner takes its verdict from it, or `testrun run` from its reporters' parts). The run is
   * then completed, and the command's exit code 0.
   */
  quarantine?: { clears: boolean };
}

/** How a run ended, and the exit code of the process that ran its command. */
export interface RunVerdict {
  status: RunEndStatus;
  /**
   * What `testrun run` exits with: the command's own code, but 0 where quarantine clears the
   * run (every failure a quarantined test's, nothing else failed): the one place it changes.
   */
  exitCode: number | undefined;
}

/**
 * The run's verdict: `interrupted` when it was cancelled or the runner says so; else
 * `completed` when quarantine clears it (its failures were quarantined tests' alone); else
 * `failed` when a result failed, the runner failed the run, or the command exited with a
 * failing code; else `completed`. A run is never greener than any of its evidence, but for
 * the one rule that weighed it all: quarantine's `clears`.
 */
export function runVerdict(evidence: RunEvidence): RunVerdict {
  const { failedResults = false, runner = {}, cancelled = false, exitCode, quarantine } = evidence;
  if (cancelled || runner.interrupted === true) return { status: 'interrupted', exitCode };
  if (quarantine?.clears === true) {
    return { status: 'completed', exitCode: exitCode === undefined ? undefined : 0 };
  }
  const failed = failedResults || verdictFails(runner) || (exitCode !== undefined && exitCode !== 0);
  const status: RunEndStatus = failed ? 'failed' : 'completed';
  return { status, exitCode };
}

/**
 * Whether the process with this configuration ends the run it reports into: only the one that
 * created it. A run given by id (`runId`: shards, `testrun run`, WebdriverIO's workers) is
 * ended by whoever created it, or by `testrun complete-run`; nor is a run shared by its key
 * (`runKey`): the first of its processes to end would end it while the others still report.
 */
export function endsItsRun(config: Pick<ResolvedConfig, 'runId' | 'runKey'>): boolean {
  return config.runId === undefined && config.runKey === undefined;
}

/** The request that ends a run, once it is decided that one is sent. */
export interface PlannedEnd {
  request: CompleteRunRequest;
  /**
   * Whether the service takes it is not known yet (the run was never created): sent only if
   * the create-run answer replay gets announces `complete-run`.
   */
  ifAnnounced: boolean;
}

/**
 * Whether the service is told the run ended, and with which request: the one `completeRun`
 * gives (an object), always; with `'auto'` the default request where the service announced
 * `complete-run`, nothing where it said it does not, and, not known yet (`announced`
 * undefined: a run never created), the default request if replay's answer announces it.
 * `false` sends nothing. `asked`: a user asked for it (`testrun complete-run`), so `false`
 * does not stop it and a bare id, which says nothing of the service, is asked.
 */
export function endRequest(
  choice: CompleteRunChoice,
  announced: boolean | undefined,
  { asked = false }: { asked?: boolean } = {},
): PlannedEnd | undefined {
  if (typeof choice === 'object') return { request: choice, ifAnnounced: false };
  if (choice === false && !asked) return undefined;
  if (announced === true || (announced === undefined && asked)) {
    return { request: DEFAULT_COMPLETE_RUN, ifAnnounced: false };
  }
  return announced === undefined ? { request: DEFAULT_COMPLETE_RUN, ifAnnounced: true } : undefined;
}

/** What create-run's answer (or a handle) says of completing runs; undefined when it says nothing. */
export function announcesCompletion(extensions: readonly string[] | undefined): boolean | undefined {
  return extensions?.includes(COMPLETE_RUN_EXTENSION);
}

/**
 * How sending the end went: `sent`; `refused`, a 4xx (a 409: the run already ended another
 * way), which asking again would get again; `unsent`, no answer that settles it (5xx or no
 * answer until the retries or the deadline ran out, a refused key, TLS), which may pass later:
 * a reporter spools it, replay keeps it.
 */
export type RunEndOutcome =
  | { state: 'sent'; status: RunEndStatus }
  | { state: 'refused' | 'unsent'; status: RunEndStatus; error: Error };

/**
 * A 409 to completing a run says it already ended another way (the local server answers so):
 * asking again gets the same answer, so it is a refusal, not a retry.
 */
const FINAL: ReadonlySet<number> = new Set([409]);

/**
 * Sends the request that ends `runId` with `status`, with the retries, headers, idempotency
 * key and deadline of every other request. Never rejects on the service's account.
 */
export async function sendRunEnd(
  http: HttpClient,
  runId: string,
  request: CompleteRunRequest,
  status: RunEndStatus,
  idempotencyKey: string,
  policy: RetryPolicy,
  deadline: Deadline,
): Promise<RunEndOutcome> {
  const outcome = await sendWithRetries(
    http,
    fillPath(request.path, runId),
    fillBody(request.body, status, runId),
    idempotencyKey,
    policy,
    deadline,
    { method: request.method, final: FINAL },
  );
  if (outcome.kind === 'ok') return { state: 'sent', status };
  const refused = outcome.kind === 'rejected' || outcome.kind === 'too-large';
  return { state: refused ? 'refused' : 'unsent', status, error: outcome.error };
}

export interface EndRunInit {
  config: ResolvedConfig;
  runId: string;
  /** What create-run's answer announced for the run (or its handle says); undefined for a bare id. */
  extensions: readonly Extension[] | undefined;
  status: RunEndStatus;
  /** A user asked for it (`testrun complete-run`): see `endRequest`. */
  asked?: boolean;
  userAgent: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * What `endRun` did: besides `sendRunEnd`'s outcomes, `not-announced` (the service did not
 * announce completing runs, so it was not asked) and `off` (`completeRun: false`).
 */
export type EndRunOutcome = RunEndOutcome | { state: 'not-announced' | 'off'; status: RunEndStatus };

/**
 * Ends a run in one step, for a process that is not a reporter (`testrun run`, `testrun
 * complete-run`, WebdriverIO's launcher): decides the request, sends it within the
 * `flushTimeout` deadline, and closes its connections. Never rejects on the service's account.
 */
export async function endRun(init: EndRunInit): Promise<EndRunOutcome> {
  const { config, runId, status } = init;
  const planned = endRequest(config.completeRun, announcesCompletion(init.extensions), init);
  // A run that exists but whose service said nothing of completing it (an id alone) is not
  // asked unless a user asks.
  if (!planned || planned.ifAnnounced) {
    return { state: config.completeRun === false ? 'off' : 'not-announced', status };
  }
  const service = openService({ ...config, userAgent: init.userAgent, env: init.env ?? process.env });
  service.deadline.start(config.flushTimeout);
  try {
    return await sendRunEnd(
      service.http,
      runId,
      planned.request,
      status,
      randomUUID(),
      config,
      service.deadline,
    );
  } finally {
    await service.close();
  }
}
