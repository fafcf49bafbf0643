import { createRun } from './create-run.js';
import { Deadline } from './deadline.js';
import { type Batch, deliverBatch, makeBatch, resultsOf } from './deliver-batch.js';
import { HttpClient } from './http-client.js';
import { OPTION_SPECS } from './option-specs.js';
import { type ClaimedSpool, claimSpool, releaseSpool } from './spool.js';
import type { TlsMaterial } from './tls-material.js';

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
  files: number;
  delivered: number;
  /** Results still in the spool afterwards. */
  remaining: number;
  errors: string[];
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
 * another replay holds, are left alone (spool.ts). See docs/design.md, "Replay".
 */
export async function replaySpool(init: ReplayInit): Promise<ReplaySummary> {
  const deadline = new Deadline();
  deadline.start(init.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS);
  const http = new HttpClient({
    baseUrl: init.baseUrl,
    apiKey: init.apiKey,
    userAgent: init.userAgent,
    env: init.env ?? process.env,
    tls: init.tls,
  });
  const { claimed, unreadable } = claimSpool(init.dir);
  const summary: ReplaySummary = { files: claimed.length, delivered: 0, remaining: 0, errors: [] };
  for (const { file, reason } of unreadable) {
    summary.errors.push(`${file} could not be read (${reason}); it was left in place.`);
  }
  try {
    for (const spool of claimed) {
      try {
        if (isForAnotherService(spool, init)) {
          summary.errors.push(
            `${spool.file} was recorded for ${spool.run.baseUrl}, not ${init.baseUrl}; it was left in place. Set TESTRUN_BASE_URL to that service, or pass --ignore-recorded-url to send it to ${init.baseUrl}.`,
          );
        } else {
          await replayFile(spool, http, init, summary, deadline);
        }
      } finally {
        summary.remaining += countResults(spool.batches);
        releaseSpool(spool);
      }
    }
  } finally {
    deadline.dispose();
    await http.close();
  }
  for (const error of summary.errors) init.log(error);
  return summary;
}

function isForAnotherService(spool: ClaimedSpool, init: ReplayInit): boolean {
  return !init.ignoreRecordedUrl && spool.run.baseUrl.replace(/\/+$/, '') !== init.baseUrl;
}

async function replayFile(
  spool: ClaimedSpool,
  http: HttpClient,
  init: ReplayInit,
  summary: ReplaySummary,
  deadline: Deadline,
): Promise<void> {
  if (spool.run.runId === null) {
    const policy = { ...POLICY, runIdPath: init.runIdPath ?? spool.run.runIdPath };
    const outcome = await createRun(http, spool.run.run, spool.run.idempotencyKey, policy, deadline);
    if (outcome.kind !== 'ok') {
      summary.errors.push(`${spool.file}: the run could not be created: ${outcome.error.message}`);
      return;
    }
    spool.run.runId = outcome.runId;
  }
  const left: Batch[] = [];
  for (const record of spool.batches) {
    const batch = makeBatch(record.results, record.idempotencyKey);
    const delivery = await deliverBatch(http, spool.run.runId, batch, POLICY, deadline);
    summary.delivered += delivery.delivered;
    left.push(...delivery.left);
    const message = delivery.failure && `${spool.file}: ${delivery.failure.error.message}`;
    if (message && !summary.errors.includes(message)) summary.errors.push(message);
  }
  spool.batches = left.map((batch) => ({
    type: 'batch',
    idempotencyKey: batch.idempotencyKey,
    results: resultsOf(batch),
  }));
}

function countResults(batches: readonly { results: readonly unknown[] }[]): number {
  return batches.reduce((sum, batch) => sum + batch.results.length, 0);
}
