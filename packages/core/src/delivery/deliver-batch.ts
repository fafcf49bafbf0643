import type { RequestsRefusedError } from '../errors.js';
import type { ResultLimits } from '../extensions.js';
import type { HttpClient } from '../http/client.js';
import { sha256Hex } from '../sha256.js';
import type { Batch, TestResult } from '../types.js';
import type { Deadline } from './deadline.js';
import { REFUSES_CONTENT, RunRefusals } from './refusals.js';
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

/** The results of a batch, for the rare paths that need them as objects (a 413 or 400 split). */
export function resultsOf(batch: Batch): TestResult[] {
  return (JSON.parse(batch.body) as { results: TestResult[] }).results;
}

/** How a batch ended: what the service accepted, and the parts it did not, each with its own key. */
export interface BatchDelivery {
  delivered: number;
  /** Undelivered parts, to spool: the batch itself, or parts of it after a 413 or 400. */
  left: Batch[];
  /** Why parts were left (the first reason); undefined when nothing was left. */
  failure: SendFailure | RequestsRefused | undefined;
}

/** Parts kept whole because the service refuses this run's requests whatever they hold (refusals.ts). */
export interface RequestsRefused {
  kind: 'requests-refused';
  error: RequestsRefusedError;
}

/** `POST {base}/api/v1/runs/{runId}/results`: docs/service-api.md#send-results. */
export function resultsPath(runId: string): string {
  return `/api/v1/runs/${encodeURIComponent(runId)}/results`;
}

export interface DeliverOptions {
  /** The run's service accepts the `failure-details` extension (create-run.ts, acceptsFailureDetails). */
  acceptsDetails?: boolean;
  /** The run's service accepts the `attachments` extension: results keep their files' references. */
  acceptsAttachments?: boolean;
  /**
   * What the run's deliveries learned of refusals, shared by every batch of the run: results
   * found at fault wait there for the caller to say them (takeRefused), results refused alone
   * before the service took any of the run's until it does (takeUndecided).
   */
  refusals?: RunRefusals;
  /** What the run's service said one request may hold (create-run's answer): a larger batch is split unsent. */
  limits?: ResultLimits | undefined;
}

/**
 * Sends one batch of a run, with retries (send-with-retries.ts). A batch the service finds too
 * large (413) is split in half until it takes the parts or one result alone is too large; a batch
 * it refuses for what it holds (400) is split the same way to find the results at fault, which go
 * to `refusals` instead of the spool (docs/design/delivery.md#400-the-result-at-fault). Used by the
 * run session and by replay alike.
 */
export async function deliverBatch(
  http: HttpClient,
  runId: string,
  batch: Batch,
  policy: RetryPolicy,
  deadline: Deadline,
  {
    acceptsDetails = false,
    acceptsAttachments = false,
    refusals = new RunRefusals(),
    limits,
  }: DeliverOptions = {},
): Promise<BatchDelivery> {
  const path = resultsPath(runId);
  const deliver = async (part: Batch, refusedBefore: boolean): Promise<BatchDelivery> => {
    // Another part of a refused batch, once the service is found to refuse the run's requests.
    if (refusedBefore && refusals.refusesRequests) return keptWhole(part, refusals);
    const body = bodyFor(part, acceptsDetails, acceptsAttachments);
    // Past what the service said it takes: split as its 413 would, without asking (same keys).
    if (part.count > 1 && exceedsLimits(part.count, body, limits)) return deliverHalves(part, refusedBefore);
    const outcome = await sendWithRetries(http, path, body, part.idempotencyKey, policy, deadline);
    if (outcome.kind === 'ok') {
      refusals.accepted();
      return { delivered: part.count, left: [], failure: undefined };
    }
    const refusedContent = outcome.kind === 'rejected' && REFUSES_CONTENT.has(outcome.error.status);
    if (refusedContent && !refusals.search(outcome.error)) return keptWhole(part, refusals);
    if (refusedContent && part.count === 1) {
      refusals.refusedAlone(part, outcome.error);
      return { delivered: 0, left: [], failure: undefined };
    }
    if (!refusedContent && (outcome.kind !== 'too-large' || part.count < 2)) {
      return { delivered: 0, left: [part], failure: outcome };
    }
    return deliverHalves(part, refusedContent);
  };
  const deliverHalves = async (part: Batch, refusedContent: boolean): Promise<BatchDelivery> => {
    const total: BatchDelivery = { delivered: 0, left: [], failure: undefined };
    for (const half of splitBatch(part)) {
      // A refused key or a failed handshake stops the other half too: it would fail the same way.
      if (total.failure?.kind === 'auth' || total.failure?.kind === 'tls') {
        total.left.push(half);
        continue;
      }
      const done = await deliver(half, refusedContent);
      total.delivered += done.delivered;
      total.left.push(...done.left);
      total.failure ??= done.failure;
    }
    return total;
  };
  return deliver(batch, false);
}

function exceedsLimits(count: number, body: string, limits: ResultLimits | undefined): boolean {
  if (!limits) return false;
  const { maxResults, maxBytes } = limits;
  return (
    (maxResults !== undefined && count > maxResults) ||
    (maxBytes !== undefined && Buffer.byteLength(body) > maxBytes)
  );
}

/** A part kept for the spool: the service refuses this run's requests whatever they hold. */
function keptWhole(part: Batch, refusals: RunRefusals): BatchDelivery {
  const error = refusals.requestsRefused()!;
  return { delivered: 0, left: [part], failure: { kind: 'requests-refused', error } };
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
  const hex = sha256Hex(`${parentKey}/${half}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
