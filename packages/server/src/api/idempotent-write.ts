import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { IdempotencyScope, IdempotentResponse, SqlStore, StoreWriter } from '../ledger/sql-store.js';
import type { SavedResponse } from '../ledger/store.js';
import { pathOf } from '../paths.js';

/** What a write request decided: the answer, given once its writes are committed. */
export type WriteOutcome = SavedResponse;

const validKey = /^[\x21-\x7e]{1,255}$/;

/** Writes being handled right now on this server, by Idempotency-Key scope. */
export class InFlightWrites {
  readonly #scopes = new Set<string>();

  /** False when the scope is already in flight. */
  begin(scope: IdempotencyScope): boolean {
    const id = scopeId(scope);
    if (this.#scopes.has(id)) return false;
    this.#scopes.add(id);
    return true;
  }

  end(scope: IdempotencyScope): void {
    this.#scopes.delete(scopeId(scope));
  }
}

/** Thrown inside the transaction when another request saved an answer for the key first. */
class AnsweredElsewhere extends Error {}

/**
 * Commits a write and answers it, honouring Idempotency-Key: the first successful answer
 * for (key, method, path) is saved in the database in the write's own transaction and
 * replayed for a retry with the same body; a different body is 422, a retry while the
 * first is handled on this server 409. A retry is found when its own write comes to save
 * its answer and finds the key taken (or when the write is refused): the write is rolled
 * back and the saved answer replayed. The saved answer is the database's, so the same key
 * sent to two servers sharing one database writes once: the second to commit finds the
 * first's answer (on PostgreSQL its insert waits for the first's transaction). Failed
 * answers are not saved, so a retry after one is handled afresh.
 */
export async function handleWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  store: SqlStore,
  inFlight: InFlightWrites,
  decide: (tx: StoreWriter) => Promise<WriteOutcome>,
): Promise<FastifyReply> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return send(reply, await store.write(decide));

  const scope = { key, method: request.method, path: pathOf(request.url) };
  const fingerprint = fingerprintOf(request.body);
  if (!inFlight.begin(scope)) {
    throw new ApiError(
      409,
      'idempotency_key_in_flight',
      'a request with this Idempotency-Key is still being handled',
    );
  }
  try {
    try {
      const outcome = await store.write(async (tx) => {
        const answer = await decide(tx);
        if (isSuccess(answer.status)) {
          const record = { ...scope, fingerprint, response: answer };
          if (!(await tx.saveResponseLast(record, new Date().toISOString()))) throw new AnsweredElsewhere();
        }
        return answer;
      });
      return send(reply, outcome);
    } catch (error) {
      // A retry of a request already answered (or answered meanwhile by another server) lands
      // here: its write found the key saved and was rolled back, or was refused (the run has
      // gone since). The saved answer is looked up only now, not before every write: nearly
      // every request is a first one, and the lookup was one more statement each.
      // A database that failed the write may fail the lookup too: then the write's error is the answer.
      const first = await store.savedResponse(scope).catch(() => undefined);
      if (!first) throw error;
      return replay(reply, first, fingerprint);
    }
  } finally {
    inFlight.end(scope);
  }
}

function replay(reply: FastifyReply, saved: IdempotentResponse, fingerprint: string): FastifyReply {
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

function send(reply: FastifyReply, response: SavedResponse): FastifyReply {
  return reply.code(response.status).headers(response.headers).send(response.body);
}

function scopeId({ key, method, path }: IdempotencyScope): string {
  return JSON.stringify([method, path, key]);
}
