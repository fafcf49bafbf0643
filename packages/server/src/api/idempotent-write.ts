import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type {
  DataRecord,
  IdempotencyScope,
  IdempotentResponse,
  Ledger,
  SavedResponse,
} from '../ledger/ledger.js';
import { pathOf } from '../paths.js';

/** What a write request decided: the answer, and the records to commit before giving it. */
export interface WriteOutcome extends SavedResponse {
  records: DataRecord[];
}

const validKey = /^[\x21-\x7e]{1,255}$/;

/**
 * Commits a write and answers it, honouring Idempotency-Key: the first successful
 * answer for (key, method, path) is committed with the write and replayed for a retry
 * with the same body; a different body is 422, a retry during the first attempt 409.
 * Failed answers are not saved, so a retry after one is handled afresh.
 */
export async function handleWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  ledger: Ledger,
  decide: () => WriteOutcome,
): Promise<FastifyReply> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return commitAndSend(reply, ledger, decide(), []);

  const scope = { key, method: request.method, path: pathOf(request.url) };
  const fingerprint = fingerprintOf(request.body);
  if (ledger.idempotency.isInFlight(scope)) {
    throw new ApiError(
      409,
      'idempotency_key_in_flight',
      'a request with this Idempotency-Key is still being handled',
    );
  }
  const saved = ledger.idempotency.saved(scope);
  if (saved) {
    if (saved.fingerprint !== fingerprint) {
      throw new ApiError(
        422,
        'idempotency_key_reused',
        'this Idempotency-Key was already used with a different request body',
      );
    }
    return send(reply, {
      ...saved.response,
      headers: { ...saved.response.headers, 'idempotent-replayed': 'true' },
    });
  }

  ledger.idempotency.begin(scope);
  try {
    const outcome = decide();
    const saveForReplay = isSuccess(outcome.status) ? [idempotencyRecord(scope, fingerprint, outcome)] : [];
    return await commitAndSend(reply, ledger, outcome, saveForReplay);
  } finally {
    ledger.idempotency.end(scope);
  }
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !validKey.test(key)) {
    throw new ApiError(400, 'invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return key;
}

function fingerprintOf(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function idempotencyRecord(
  scope: IdempotencyScope,
  fingerprint: string,
  outcome: WriteOutcome,
): IdempotentResponse {
  const { status, headers, body } = outcome;
  return { type: 'idempotency', ...scope, fingerprint, response: { status, headers, body } };
}

async function commitAndSend(
  reply: FastifyReply,
  ledger: Ledger,
  outcome: WriteOutcome,
  extraRecords: DataRecord[],
): Promise<FastifyReply> {
  await ledger.commit([...outcome.records, ...extraRecords]);
  return send(reply, outcome);
}

function send(reply: FastifyReply, response: SavedResponse): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}
