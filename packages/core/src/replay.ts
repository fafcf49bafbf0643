import { checkBaseUrl, DEFAULTS } from './config.js';
import { createRun } from './create-run.js';
import { Deadline } from './deadline.js';
import type { ConfigError } from './errors.js';
import { HttpClient } from './http-client.js';
import { sendWithRetries } from './send-with-retries.js';
import { halfKeys } from './split-keys.js';
import { readSpool, rewriteSpoolFile, type SpoolBatchRecord, type SpoolFile } from './spool.js';

export interface ReplayInit {
  dir: string;
  apiKey: string;
  /** Overrides the baseUrl each spool file was written with. */
  baseUrl?: string;
  runIdPath?: string;
  allowInsecureHttp?: boolean;
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

/**
 * Sends what earlier runs spooled, with the idempotency keys they were first sent with,
 * so a batch that did reach the service is not stored again. Delivered batches leave the
 * spool; the rest stay for the next try.
 */
export const DEFAULT_REPLAY_TIMEOUT_MS = 120_000;

export async function replaySpool(init: ReplayInit): Promise<ReplaySummary> {
  const deadline = new Deadline();
  deadline.start(init.timeoutMs ?? DEFAULT_REPLAY_TIMEOUT_MS);
  try {
    return await replayAll(init, deadline);
  } finally {
    deadline.dispose();
  }
}

async function replayAll(init: ReplayInit, deadline: Deadline): Promise<ReplaySummary> {
  const { files, unreadable } = readSpool(init.dir);
  const summary: ReplaySummary = { files: files.length, delivered: 0, remaining: 0, errors: [] };
  for (const { file, reason } of unreadable)
    summary.errors.push(`${file} could not be read (${reason}); it was left in place.`);
  for (const spool of files) {
    const problems: ConfigError[] = [];
    const baseUrl = checkBaseUrl(
      init.baseUrl ?? spool.run.baseUrl,
      init.allowInsecureHttp ?? false,
      problems,
    );
    if (baseUrl === undefined) {
      summary.errors.push(`${spool.file}: ${problems.map((problem) => problem.message).join(' ')}`);
      summary.remaining += countResults(spool);
      continue;
    }
    const http = new HttpClient({
      baseUrl,
      apiKey: init.apiKey,
      userAgent: init.userAgent,
      env: init.env ?? process.env,
    });
    try {
      await replayFile(spool, http, init, summary, deadline);
    } finally {
      await http.close();
      rewriteSpoolFile(spool);
    }
  }
  for (const error of summary.errors) init.log(error);
  return summary;
}

const POLICY = { maxRetries: DEFAULTS.maxRetries, requestTimeout: DEFAULTS.requestTimeout };

async function replayFile(
  spool: SpoolFile,
  http: HttpClient,
  init: ReplayInit,
  summary: ReplaySummary,
  deadline: Deadline,
) {
  if (spool.run.runId === null) {
    const policy = { ...POLICY, runIdPath: init.runIdPath ?? spool.run.runIdPath };
    const outcome = await createRun(http, spool.run.run, spool.run.idempotencyKey, policy, deadline);
    if (outcome.kind !== 'ok') {
      summary.errors.push(`${spool.file}: the run could not be created: ${outcome.error.message}`);
      summary.remaining += countResults(spool);
      return;
    }
    spool.run.runId = outcome.runId;
  }
  const path = `/api/v1/runs/${encodeURIComponent(spool.run.runId)}/results`;
  const left: SpoolBatchRecord[] = [];
  for (const batch of spool.batches) {
    const unsent = await sendBatch(http, path, batch, deadline, summary, spool.file);
    left.push(...unsent);
  }
  spool.batches = left;
  summary.remaining += countResults(spool);
}

/** Returns what could not be delivered; a 413 splits the batch into halves with new keys. */
async function sendBatch(
  http: HttpClient,
  path: string,
  batch: SpoolBatchRecord,
  deadline: Deadline,
  summary: ReplaySummary,
  file: string,
): Promise<SpoolBatchRecord[]> {
  const body = JSON.stringify({ results: batch.results });
  const outcome = await sendWithRetries(http, path, body, batch.idempotencyKey, POLICY, deadline);
  if (outcome.kind === 'ok') {
    summary.delivered += batch.results.length;
    return [];
  }
  if (outcome.kind === 'too-large' && batch.results.length > 1) {
    const middle = Math.ceil(batch.results.length / 2);
    const halves = [batch.results.slice(0, middle), batch.results.slice(middle)];
    const keys = halfKeys(batch.idempotencyKey);
    const left: SpoolBatchRecord[] = [];
    for (const [i, results] of halves.entries()) {
      left.push(
        ...(await sendBatch(
          http,
          path,
          { type: 'batch', idempotencyKey: keys[i]!, results },
          deadline,
          summary,
          file,
        )),
      );
    }
    return left;
  }
  const message = `${file}: ${outcome.error.message}`;
  if (!summary.errors.includes(message)) summary.errors.push(message);
  return [batch];
}

function countResults(spool: SpoolFile): number {
  return spool.batches.reduce((sum, batch) => sum + batch.results.length, 0);
}
