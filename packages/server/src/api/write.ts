import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ApiError, runNotFound } from '../errors.js';
import { runState } from '../ledger/run-state.js';
import type { SqlStore } from '../ledger/sql-store.js';
import type { ResultInput, RunEndStatus } from '../ledger/store.js';
import { paths, runLocation, runPagePath } from '../paths.js';
import { addShardResults, shardOfBatch } from '../plans/run-shards.js';
import { handleWrite, type InFlightWrites } from './idempotent-write.js';
import { unstorableText } from './storable-text.js';

/** What every write route needs: the store and this server's writes in flight. */
export interface Writes {
  store: SqlStore;
  inFlight: InFlightWrites;
}

// The spec's two operations. Their schemas say additionalProperties: false everywhere:
// a client sending a field the spec does not have is a mistake this server reports.

interface RunBody {
  project: string;
  framework: string;
  tags?: string[];
}

interface ResultsBody {
  results: ResultInput[];
}

interface Limits {
  statuses: readonly string[];
  maxResultsPerRequest: number;
  /** Results may carry `details` (the `failure-details` extension). */
  failureDetails: boolean;
  /** Results may name files (the `attachments` extension). */
  attachments: boolean;
  /** A failed result may say it was a quarantined test's (`quarantined`: the `quarantine` extension). */
  quarantine: boolean;
}

/** The extension create-run announces when the server accepts why a test failed. */
export const FAILURE_DETAILS_EXTENSION = 'failure-details';
/** The extension create-run announces so that reporters complete the runs they create (PATCH, below). */
export const COMPLETE_RUN_EXTENSION = 'complete-run';
/** The extension create-run announces when results may name files (api/attachments.ts), with its limits. */
export const ATTACHMENTS_EXTENSION = 'attachments';

/** The extension create-run announces so that the process ending a shared run reads it back (api/read.ts). */
export const READ_RUNS_EXTENSION = 'read-runs';
/** The extension create-run announces when the server makes shard plans (POST /api/v1/plans, plans/plan-route.ts). */
export const SHARD_PLANS_EXTENSION = 'shard-plans';

/**
 * The extension create-run announces so that reporters read the run's quarantined tests
 * (`GET /api/v1/runs/{id}/quarantine`) and mark a quarantined test's failure (`quarantined`).
 */
export const QUARANTINE_EXTENSION = 'quarantine';

/**
 * What create-run's answer says beyond the spec, by the server's options: its extensions, the
 * attachments' limits, and what one results request may hold (a reporter splits a larger batch
 * before sending it rather than after a 413).
 */
export interface Announcement {
  extensions: string[];
  attachments?: { maxFileBytes: number; maxRunBytes: number };
  results?: { maxResults: number; maxBytes: number };
}

export function announcement(options: {
  failureDetails: boolean;
  completeRun: boolean;
  readRuns: boolean;
  shardPlans: boolean;
  attachments: boolean;
  quarantine?: boolean;
  maxAttachmentBytes: number;
  maxRunAttachmentBytes: number;
  maxResultsPerRequest: number;
  maxBodyBytes: number;
  announceResultLimits: boolean;
}): Announcement {
  const extensions = [
    ...(options.failureDetails ? [FAILURE_DETAILS_EXTENSION] : []),
    ...(options.completeRun ? [COMPLETE_RUN_EXTENSION] : []),
    ...(options.readRuns ? [READ_RUNS_EXTENSION] : []),
    ...(options.shardPlans ? [SHARD_PLANS_EXTENSION] : []),
    ...(options.attachments ? [ATTACHMENTS_EXTENSION] : []),
    ...(options.quarantine ? [QUARANTINE_EXTENSION] : []),
  ];
  return {
    extensions,
    ...(options.attachments
      ? {
          attachments: {
            maxFileBytes: options.maxAttachmentBytes,
            maxRunBytes: options.maxRunAttachmentBytes,
          },
        }
      : {}),
    ...(options.announceResultLimits
      ? { results: { maxResults: options.maxResultsPerRequest, maxBytes: options.maxBodyBytes } }
      : {}),
  };
}

/**
 * A failed result's `details`, as strictly as the four fields: each field's type and size
 * (the bounds the reporters cut to, packages/core/src/results/failure-details.ts), nothing else.
 */
const detailsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    message: { type: 'string', maxLength: 4_096 },
    stack: { type: 'string', maxLength: 16_384 },
    location: { type: 'string', minLength: 1, maxLength: 1_024 },
    attempts: { type: 'integer', minimum: 1, maximum: 1_000 },
  },
} as const;

/**
 * A run's project, framework and each tag at most this many characters: each is a key of a
 * PostgreSQL index (runs by project and by framework, run_tags), whose entries hold at most
 * 2,704 bytes, and 512 characters are at most 2,048 bytes of UTF-8. Branch names, commits
 * and CI URLs fit many times over.
 */
export const MAX_LABEL_LENGTH = 512;

/**
 * The largest `duration` taken: 10^12, over 31 years in milliseconds. Larger is no test's
 * duration, and a run's total (their sum) must stay a finite number on both engines (1e308
 * twice is Infinity in SQLite, which JSON cannot carry, and an overflow error in PostgreSQL).
 */
export const MAX_DURATION = 1e12;

/** After the schema: text no engine can store as sent is refused, naming the field (storable-text.ts). */
async function refuseUnstorableText(request: { body: unknown }): Promise<void> {
  const refused = unstorableText(request.body);
  if (refused) throw refused;
}

/** POST /api/v1/runs → 201 with the run, its Location, and a Link to its page for people. */
export function registerCreateRun(
  app: FastifyInstance,
  writes: Writes,
  runIds: 'uuid' | 'integer',
  announced: Announcement,
): void {
  // Said in the answer's body, beside the id: a reporter sends `details`, completes the run and
  // uploads files only where the answer says so. A server that announces nothing answers the spec alone.
  const extensions =
    announced.extensions.length > 0
      ? {
          extensions: announced.extensions,
          ...(announced.attachments ? { attachments: announced.attachments } : {}),
          ...(announced.results ? { results: announced.results } : {}),
        }
      : {};
  const options = { schema: { body: runBodySchema }, preHandler: refuseUnstorableText };
  app.post<{ Body: RunBody }>(paths.runs, options, (request, reply) =>
    handleWrite(request, reply, writes.store, writes.inFlight, async (tx) => {
      const { project, framework, tags = [] } = request.body;
      const run = await tx.createRun(
        { project, framework, tags, createdAt: new Date().toISOString() },
        runIds,
        randomUUID,
      );
      return {
        status: 201,
        headers: {
          location: runLocation(run.id),
          link: `<${runPagePath(run.id)}>; rel="alternate"; type="text/html"`,
          'content-type': 'application/json; charset=utf-8',
        },
        // An integer id goes out as a JSON number, digit for digit.
        body:
          runIds === 'uuid'
            ? JSON.stringify({ ...run, ...extensions })
            : JSON.stringify({ ...run, ...extensions }).replace(/"id":"(\d+)"/, '"id":$1'),
      };
    }),
  );
}

/** POST /api/v1/runs/{id}/results → 201 `{ accepted: n }`; 404 for an unknown run. */
export function registerSubmitResults(app: FastifyInstance, writes: Writes, limits: Limits): void {
  app.post<{ Params: { id: string }; Body: ResultsBody }>(
    paths.runResults,
    {
      schema: {
        body: resultsBodySchema(
          limits.statuses,
          limits.failureDetails,
          limits.attachments,
          limits.quarantine,
        ),
      },
      // Before schema validation: an oversized batch is a 413 whatever its contents.
      preValidation: async (request) => {
        const results = (request.body as Partial<ResultsBody> | null)?.results;
        if (Array.isArray(results) && results.length > limits.maxResultsPerRequest) {
          throw new ApiError(
            413,
            'too_many_results',
            `results has ${results.length} items; this server accepts at most ${limits.maxResultsPerRequest} per request`,
          );
        }
      },
      preHandler: refuseUnstorableText,
    },
    (request, reply) =>
      handleWrite(request, reply, writes.store, writes.inFlight, async (tx) => {
        const runId = request.params.id;
        const { results } = request.body;
        const receivedAt = new Date().toISOString();
        if (!(await tx.addResults(runId, results, receivedAt))) throw runNotFound(runId);
        const shard = shardOfBatch(request.headers);
        if (shard) await addShardResults(tx.tx, runId, shard, results, receivedAt);
        return { status: 201, headers: {}, body: { accepted: results.length } };
      }),
  );
}

interface EndBody {
  status: RunEndStatus;
}

/**
 * PATCH /api/v1/runs/{id} `{ status }` → 200 with the run: it ended completed, failed or
 * interrupted. Saying it again is answered the same; saying it ended another way is 409.
 */
export function registerCompleteRun(app: FastifyInstance, writes: Writes, abandonedAfterMs: number): void {
  app.patch<{ Params: { id: string }; Body: EndBody }>(
    paths.run,
    { schema: { body: endBodySchema } },
    (request, reply) =>
      handleWrite(request, reply, writes.store, writes.inFlight, async (tx) => {
        const runId = request.params.id;
        const run = await tx.run(runId);
        if (!run) throw runNotFound(runId);
        const { status } = request.body;
        const earlier = await tx.endOf(runId);
        if (earlier && earlier.status !== status) {
          throw new ApiError(
            409,
            'run_already_completed',
            `run ${JSON.stringify(runId.slice(0, 100))} was already completed as ${earlier.status} at ${earlier.endedAt}; it cannot become ${status}`,
          );
        }
        const end = earlier ?? { status, endedAt: new Date().toISOString() };
        if (!earlier) await tx.endRun(runId, end);
        const counted = await writes.store.withCountsIn(tx, runId);
        const answer = { ...counted!, end };
        return {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: { ...answer, state: runState(answer, Date.now(), abandonedAfterMs) },
        };
      }),
  );
}

const endBodySchema = {
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['completed', 'failed', 'interrupted'] } },
} as const;

const label = { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH, pattern: '\\S' } as const;

const runBodySchema = {
  type: 'object',
  required: ['project', 'framework'],
  additionalProperties: false,
  properties: {
    project: label,
    framework: label,
    tags: { type: 'array', items: { type: 'string', maxLength: MAX_LABEL_LENGTH } },
  },
} as const;

/**
 * A result's files (the `attachments` extension): each named by the hash of its bytes, which
 * go apart (`PUT …/attachments/{sha256}`); its name and type only ever shown, never a path.
 */
const attachmentsSchema = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    required: ['name', 'contentType', 'size', 'sha256'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 256 },
      contentType: {
        type: 'string',
        minLength: 3,
        maxLength: 255,
        pattern: '^[!#$&^_.+\\-0-9A-Za-z]+/[^\\s]',
      },
      size: { type: 'integer', minimum: 0, maximum: 9_007_199_254_740_991 },
      sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      attempt: { type: 'integer', minimum: 1, maximum: 1_000 },
    },
  },
} as const;

function resultsBodySchema(
  statuses: readonly string[],
  failureDetails: boolean,
  attachments: boolean,
  quarantine: boolean,
) {
  return {
    type: 'object',
    required: ['results'],
    additionalProperties: false,
    properties: {
      results: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['testSuite', 'testCase', 'status', 'duration'],
          additionalProperties: false,
          properties: {
            testSuite: { type: 'string' },
            testCase: { type: 'string' },
            status: { type: 'string', enum: [...statuses] },
            duration: { type: 'number', minimum: 0, maximum: MAX_DURATION },
            ...(failureDetails ? { details: detailsSchema } : {}),
            ...(attachments ? { attachments: attachmentsSchema } : {}),
            ...(quarantine ? { quarantined: { type: 'boolean' } } : {}),
          },
        },
      },
    },
  } as const;
}
