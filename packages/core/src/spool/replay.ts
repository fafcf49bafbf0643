import { wallClockNow } from '../clock.js';
import { deliverBatch, makeBatch, resultsOf } from '../delivery/deliver-batch.js';
import { RefusedLines, RunRefusals } from '../delivery/refusals.js';
import { openService, type Service } from '../delivery/service.js';
import { ATTACHMENTS_EXTENSION, FAILURE_DETAILS_EXTENSION, type ResultLimits } from '../extensions.js';
import { OPTION_SPECS } from '../options/option-specs.js';
import type { TlsMaterial } from '../options/tls-material.js';
import { announcesCompletion, sendRunEnd as sendEnd } from '../run-end/end-run.js';
import type { Batch } from '../types.js';
import { type ClaimedSpool, claimSpool, releaseSpool, type SpoolScan } from './spool.js';

export interface ReplayInit {
  dir: string;
  apiKey: string;
  /** The configured service (TESTRUN_BASE_URL, checked): the only place the key is sent. */
  baseUrl: string;
  /** Also send files recorded for another service to `baseUrl`; without it they are skipped. */
  ignoreRecordedUrl?: boolean;
  runIdPath?: string;
  /** A private CA and a client certificate (the `ca`, `clientCert` and `clientKey` options). */
  tls?: TlsMaterial | undefined;
  /** The whole replay ends within this; what is not sent by then stays in the spool. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  userAgent: string;
  log: (line: string) => void;
}

export interface ReplaySummary {
  /** Spool files this replay read and tried to send. */
  files: number;
  delivered: number;
  /** Runs completed with the end a reporter spooled (`completeRun`). */
  runsCompleted: number;
  /** Spooled ends the service refused: one line each, and out of the spool (asking again gets the same answer). */
  endsRefused: number;
  /**
   * Results the service refused alone while it took others of their run (400): out of the
   * spool, since sending them again would be refused again; `lines` of `errors` name them.
   */
  refused: { results: number; lines: number };
  /** Results still in those files afterwards. */
  remaining: number;
  /** Files a running reporter or replay holds, left alone: their results remain too. */
  held: number;
  /** `.bad` files, set aside now or by an earlier replay: never sent until fixed. */
  setAside: number;
  /** Files recorded for another service, left in place (counted in `remaining` too): running again changes nothing for them. */
  forAnotherService: { files: number; results: number };
  /**
   * Attached files: uploaded now; dropped for good (gone, changed since the run, refused, or a
   * service that does not take files: one line each); still in the spool.
   */
  attachments: { sent: number; dropped: number; remaining: number };
  /** One line per problem, each naming its file and the fix; printed through `log`. */
  errors: string[];
  /**
   * Lines about files that can never be sent from here (gone, changed, refused, a service that
   * takes none): printed through `log` too, but nothing remains to retry for them.
   */
  notes: string[];
}

export const DEFAULT_REPLAY_TIMEOUT_MS = 120_000;

const POLICY = {
  maxRetries: OPTION_SPECS.maxRetries.default,
  requestTimeout: OPTION_SPECS.requestTimeout.default,
};

/**
 * Sends what earlier runs spooled, with the idempotency keys they were first sent with,
 * so a batch that did reach the service is not stored again. Delivered batches leave the
 * spool; the rest stay for the next try. Files a live reporter is still writing, or
 * another replay holds, are left alone (spool.ts). See docs/design/spool-and-replay.md#replay.
 */
export async function replaySpool(init: ReplayInit): Promise<ReplaySummary> {
  const timeoutMs = init.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS;
  // Claims carry the wall-clock time this replay ends by: a replay on another machine
  // compares it with its own clock (spool.ts).
  const scan = claimSpool(init.dir, wallClockNow() + timeoutMs);
  const summary: ReplaySummary = {
    files: scan.claimed.length,
    delivered: 0,
    runsCompleted: 0,
    endsRefused: 0,
    refused: { results: 0, lines: 0 },
    remaining: 0,
    held: scan.held.length,
    setAside: scan.setAside.length + scan.badFiles.length,
    forAnotherService: { files: 0, results: 0 },
    attachments: { sent: 0, dropped: 0, remaining: 0 },
    errors: problemsFound(scan),
    notes: [],
  };
  const stillClaimed = new Set(scan.claimed);
  const refusedLines = new RefusedLines();
  let service: Service | undefined;
  try {
    service = openService({ ...init, ...POLICY, runIdPath: undefined, env: init.env ?? process.env });
    service.deadline.start(timeoutMs);
    for (const spool of scan.claimed) {
      await sendFile(spool, service, init, summary, refusedLines);
      release(spool, summary);
      stillClaimed.delete(spool);
    }
  } catch (error) {
    summary.errors.push(`the replay stopped: ${(error as Error).message}`);
  } finally {
    // Whatever happened, no file stays claimed by a replay that ended.
    for (const spool of stillClaimed) release(spool, summary);
    await service?.close();
  }
  for (const line of [...summary.errors, ...summary.notes]) init.log(line);
  return summary;
}

/** Sends one file; whatever goes wrong with it is one line, and the other files are still sent. */
async function sendFile(
  spool: ClaimedSpool,
  service: Service,
  init: ReplayInit,
  summary: ReplaySummary,
  refusedLines: RefusedLines,
): Promise<void> {
  try {
    if (isForAnotherService(spool, service, init)) {
      summary.forAnotherService.files += 1;
      summary.forAnotherService.results += countResults(spool.batches);
      summary.errors.push(
        `${spool.file} was recorded for ${spool.run.baseUrl}, not ${init.baseUrl}; it was left in place. Set TESTRUN_BASE_URL to that service, or pass --ignore-recorded-url to send it to ${init.baseUrl}.`,
      );
    } else {
      await replayFile(spool, service, init, summary, refusedLines);
    }
  } catch (error) {
    summary.errors.push(`${spool.file}: ${(error as Error).message}`);
  }
}

/** One line for every file the scan did not claim, saying why and what to do. */
function problemsFound(scan: SpoolScan): string[] {
  return [
    ...scan.setAside.map(
      ({ file, reason }) =>
        `${file.slice(0, -'.bad'.length)} is not a spool file a reporter writes (${reason}); it was set aside as ${file} and not sent. Fix that line and rename the file back to send it, or delete it.`,
    ),
    ...scan.badFiles.map(
      (file) =>
        `${file} was set aside by an earlier replay: its lines are not what a reporter writes. Fix it and rename it to ${file.slice(0, -'.bad'.length)} to send it, or delete it.`,
    ),
    ...scan.unreadable.map(
      ({ file, reason }) => `${file} could not be read (${reason}); it was left in place.`,
    ),
    ...scan.held.map(({ file, holder }) => `${file} is held by ${holder}; it was left alone.`),
  ];
}

/** Gives a file back to the spool with what is left; a file that cannot be given back is taken over by a later replay. */
function release(spool: ClaimedSpool, summary: ReplaySummary): void {
  summary.remaining += countResults(spool.batches);
  summary.attachments.remaining += spool.attachments.length;
  try {
    releaseSpool(spool);
  } catch (error) {
    summary.errors.push(`${spool.file} could not be given back to the spool: ${(error as Error).message}`);
  }
}

/** The spool keeps the base URL as the client prints it (run-session.ts); compared alike. */
function isForAnotherService(spool: ClaimedSpool, service: Service, init: ReplayInit): boolean {
  const configured = service.http.displayUrl('');
  return !init.ignoreRecordedUrl && spool.run.baseUrl.replace(/\/+$/, '') !== configured;
}

async function replayFile(
  spool: ClaimedSpool,
  service: Service,
  init: ReplayInit,
  summary: ReplaySummary,
  refusedLines: RefusedLines,
): Promise<void> {
  // What the service said one request may hold, where this replay created the run; else its 413s say it.
  let limits: ResultLimits | undefined;
  if (spool.run.runId === null) {
    const runIdPath = init.runIdPath ?? spool.run.runIdPath;
    const outcome = await service.createRun(spool.run.run, spool.run.idempotencyKey, { runIdPath });
    if (outcome.kind !== 'ok') {
      summary.errors.push(`${spool.file}: the run could not be created: ${outcome.error.message}`);
      return;
    }
    spool.run.runId = outcome.runId;
    limits = outcome.resultLimits;
    spool.run.failureDetails ??= outcome.extensions.includes(FAILURE_DETAILS_EXTENSION);
    spool.run.attachments ??= outcome.extensions.includes(ATTACHMENTS_EXTENSION);
    if (spool.run.attachments && outcome.attachmentLimits)
      spool.run.attachmentLimits ??= outcome.attachmentLimits;
    // An end spooled for a run never created, with completeRun 'auto': sent only where this
    // answer announces it, and so decided for good should the file go back to the spool.
    if (spool.complete?.ifAnnounced) {
      const { ifAnnounced: _, ...end } = spool.complete;
      spool.complete = announcesCompletion(outcome.extensions) ? end : undefined;
    }
  }
  // Batches keep why tests failed and the files they name; each goes out only to a run whose service takes it.
  const acceptsDetails = spool.run.failureDetails === true;
  const acceptsAttachments = spool.run.attachments === true;
  // A file holds one run: a result refused alone is at fault once the service takes another of it.
  const refusals = new RunRefusals();
  const left: Batch[] = [];
  const say = (message: string): boolean => {
    const line = `${spool.file}: ${message}`;
    if (summary.errors.includes(line)) return false;
    summary.errors.push(line);
    return true;
  };
  for (const record of spool.batches) {
    const batch = makeBatch(record.results, record.idempotencyKey);
    const delivery = await deliverBatch(service.http, spool.run.runId, batch, POLICY, service.deadline, {
      acceptsDetails,
      acceptsAttachments,
      refusals,
      limits,
    });
    summary.delivered += delivery.delivered;
    left.push(...delivery.left);
    if (delivery.failure) say(delivery.failure.error.message);
  }
  for (const refused of refusals.takeRefused()) {
    summary.refused.results += 1;
    const line = refusedLines.lineFor(refused);
    if (line && say(line)) summary.refused.lines += 1;
  }
  const undecided = refusals.takeUndecided();
  if (undecided.length > 0) say(refusals.requestsRefused()!.message);
  left.push(...undecided);
  spool.batches = left.map((batch) => ({
    type: 'batch',
    idempotencyKey: batch.idempotencyKey,
    results: resultsOf(batch),
  }));
  if (spool.attachments.length > 0) await sendAttachments(spool, spool.run.runId, service, summary);
  if (spool.complete && left.length === 0 && spool.attachments.length === 0) {
    await sendRunEnd(spool, spool.run.runId, service, summary);
  }
}

/**
 * The files a reporter could not upload, once its run takes them: each from where it was, if
 * it is still there and unchanged, or from the bytes the spool kept. The attachments' code is
 * loaded only here, for a spool that has files.
 */
async function sendAttachments(
  spool: ClaimedSpool,
  runId: string,
  service: Service,
  summary: ReplaySummary,
): Promise<void> {
  if (spool.run.attachments !== true) {
    summary.attachments.dropped += spool.attachments.length;
    summary.notes.push(
      `${spool.file}: ${spool.attachments.length} attached files were not uploaded: the service does not take files (it announced no "attachments")`,
    );
    spool.attachments = [];
    return;
  }
  const { replayAttachments } = await import('../attachments/index.js');
  const replayed = await replayAttachments(spool.attachments, {
    http: service.http,
    runId,
    policy: POLICY,
    deadline: service.deadline,
  });
  spool.attachments = replayed.left;
  summary.attachments.sent += replayed.sent;
  summary.attachments.dropped += replayed.dropped;
  for (const line of replayed.notes) summary.notes.push(`${spool.file}: ${line}`);
  for (const line of replayed.errors) summary.errors.push(`${spool.file}: ${line}`);
}

/**
 * The run's end a reporter spooled (`completeRun`), sent once every batch of its file is
 * delivered, with the key the reporter would have sent it with. A refusal is one line and
 * the end leaves the spool (sending it again would be refused again); anything else keeps it.
 */
async function sendRunEnd(
  spool: ClaimedSpool,
  runId: string,
  service: Service,
  summary: ReplaySummary,
): Promise<void> {
  const { status, idempotencyKey, request } = spool.complete!;
  const outcome = await sendEnd(
    service.http,
    runId,
    request,
    status,
    idempotencyKey,
    POLICY,
    service.deadline,
  );
  if (outcome.state === 'sent') {
    summary.runsCompleted += 1;
    spool.complete = undefined;
    return;
  }
  const refused = outcome.state === 'refused';
  if (refused) {
    spool.complete = undefined;
    summary.endsRefused += 1;
  }
  summary.errors.push(
    `${spool.file}: the run could not be completed (${status})${refused ? '' : '; it stays in the spool'}: ${outcome.error.message}`,
  );
}

function countResults(batches: readonly { results: readonly unknown[] }[]): number {
  return batches.reduce((sum, batch) => sum + batch.results.length, 0);
}
