import { createHash } from 'node:crypto';
import type { HttpClient } from '../http/client.js';
import type { Batch, TestResult } from '../types.js';
import type { Deadline } from './deadline.js';
import { type RetryPolicy, type SendFailure, sendWithRetries } from './send-with-retries.js';

export function makeBatch(results: readonly TestResult[], idempotencyKey: string): Batch {
  return {
    idempotencyKey,
    count: results.length,
    body: JSON.stringify({ results }),
    withDetails: results.some((result) => result.details !== undefined),
    withAttachments: results.some((result) => result.attachments !== undefined),
  };
}

/**
 * The body as this run's service takes it: with why tests failed only when it accepts the
 * `failure-details` extension, with the files' references only when it accepts `attachments`;
 * without, the spec's four fields, byte for byte the body a reporter without the extensions
 * sends. Only a batch that holds what its service does not take is parsed again.
 */
export function bodyFor(batch: Batch, acceptsDetails: boolean, acceptsAttachments = false): string {
  const dropDetails = !acceptsDetails && batch.withDetails;
  const dropAttachments = !acceptsAttachments && batch.withAttachments === true;
  if (!dropDetails && !dropAttachments) return batch.body;
  const results = resultsOf(batch).map(({ testSuite, testCase, status, duration, details, attachments }) => ({
    testSuite,
    testCase,
    status,
    duration,
    ...(details && !dropDetails ? { details } : {}),
    ...(attachments && !dropAttachments ? { attachments } : {}),
  }));
  return JSON.stringify({ results });
}

/** The results of a batch, for the rare paths that need them as objects (a 413 split). */
export function resultsOf(batch: Batch): TestResult[] {
  return (JSON.parse(batch.body) as { results: TestResult[] }).results;
}

/** How a batch ended: what the service accepted, and the parts it did not, each with its own key. */
export interface BatchDelivery {
  delivered: number;
  /** Undelivered parts, to spool: the batch itself, or halves of it after a 413. */
  left: Batch[];
  /** Why parts were left (the first reason); undefined when everything was delivered. */
  failure: SendFailure | undefined;
}

/** `POST {base}/api/v1/runs/{runId}/results` (spec 4.2). */
export function resultsPath(runId: string): string {
  return `/api/v1/runs/${encodeURIComponent(runId)}/results`;
}

/**
 * Sends one batch of a run, with retries (send-with-retries.ts), and splits it in half on
 * a 413 until the service takes it or a part of one result is refused (docs/design.md,
 * "413, refused keys, TLS"). Used by the run session and by replay alike. `acceptsDetails`:
 * the run's service accepts the `failure-details` extension (create-run.ts, acceptsFailureDetails).
 */
export async function deliverBatch(
  http: HttpClient,
  runId: string,
  batch: Batch,
  policy: RetryPolicy,
  deadline: Deadline,
  acceptsDetails = false,
  acceptsAttachments = false,
): Promise<BatchDelivery> {
  const path = resultsPath(runId);
  const body = bodyFor(batch, acceptsDetails, acceptsAttachments);
  const outcome = await sendWithRetries(http, path, body, batch.idempotencyKey, policy, deadline);
  if (outcome.kind === 'ok') return { delivered: batch.count, left: [], failure: undefined };
  if (outcome.kind !== 'too-large' || batch.count < 2) {
    return { delivered: 0, left: [batch], failure: outcome };
  }
  const total: BatchDelivery = { delivered: 0, left: [], failure: undefined };
  for (const half of splitBatch(batch)) {
    // A refused key or a failed handshake stops the other half too: it would fail the same way.
    if (total.failure?.kind === 'auth' || total.failure?.kind === 'tls') {
      total.left.push(half);
      continue;
    }
    const part = await deliverBatch(http, runId, half, policy, deadline, acceptsDetails, acceptsAttachments);
    total.delivered += part.delivered;
    total.left.push(...part.left);
    total.failure ??= part.failure;
  }
  return total;
}

/**
 * The two halves of a batch the service found too large. Each half is a new body, so it
 * gets a new key; the keys derive from the batch's key, so a replay that splits the same
 * batch again sends the same keys and the service recognises a half it already stored.
 */
export function splitBatch(batch: Batch): [Batch, Batch] {
  const results = resultsOf(batch);
  const middle = Math.ceil(results.length / 2);
  return [
    makeBatch(results.slice(0, middle), deriveKey(batch.idempotencyKey, 0)),
    makeBatch(results.slice(middle), deriveKey(batch.idempotencyKey, 1)),
  ];
}

function deriveKey(parentKey: string, half: number): string {
  const hex = createHash('sha256').update(`${parentKey}/${half}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
