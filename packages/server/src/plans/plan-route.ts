import type { FastifyInstance, FastifyReply } from 'fastify';
import { unstorableText } from '../api/storable-text.js';
import { MAX_LABEL_LENGTH } from '../api/write.js';
import { ApiError, errorBody } from '../errors.js';
import type { SqlStore } from '../ledger/sql-store.js';
import { paths } from '../paths.js';
import { fileDurations } from './file-durations.js';
import { filesDifference, filesHash, makePlan, type Plan, type PlanRequestBody } from './make-plan.js';
import { insertPlan, storedPlan } from './plan-store.js';

/** The most files one plan splits. */
export const MAX_PLAN_FILES = 100_000;

/**
 * POST /api/v1/plans (docs/design/shard-plans.md#the-protocol): the plan for a key, made by the
 * first shard to ask and stored, answered to every later shard as it was: 201 when this request
 * made it, 200 when it was there. A request whose files are not the plan's is 409
 * `plan_files_differ`, naming the difference: its shard would otherwise run files no other shard
 * expects, or miss some. Not an idempotent write of the Idempotency-Key kind: the key of the plan
 * is what makes asking again safe, and its answer is what every shard must get.
 */
export function registerPlans(app: FastifyInstance, store: SqlStore, abandonedAfterMs: number): void {
  app.post<{ Body: PlanRequestBody }>(
    paths.plans,
    {
      schema: { body: planBodySchema },
      preHandler: async (request) => {
        const refused = unstorableText(request.body);
        if (refused) throw refused;
        refuseBadRequest(request.body);
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { project, key, shardCount } = body;
      const given = body.files.map(({ file }) => file);
      const hash = filesHash(given);
      const stored = await storedPlan(store.db, project, key, shardCount);
      if (stored) return answer(reply, 200, stored, body, hash, given);
      const durations = await fileDurations(
        store.db,
        {
          project,
          branch: body.branch,
          defaultBranch: body.defaultBranch,
          abandonedAfterMs,
          now: Date.now(),
        },
        new Set(given),
      );
      const plan = makePlan(body, durations, new Date().toISOString());
      // Another shard may have stored one meanwhile: the first committed is the plan.
      const kept = await store.write(async (tx) =>
        (await insertPlan(tx.tx, plan)) ? plan : storedPlan(tx.tx, project, key, shardCount),
      );
      return answer(reply, kept === plan ? 201 : 200, kept ?? plan, body, hash, given);
    },
  );
}

function answer(
  reply: FastifyReply,
  status: 200 | 201,
  plan: Plan,
  request: PlanRequestBody,
  hash: string,
  given: readonly string[],
): FastifyReply {
  if (plan.filesHash !== hash) {
    const difference = filesDifference(
      plan.files.map(({ file }) => file),
      given,
    );
    return reply
      .code(409)
      .send(
        errorBody(
          'plan_files_differ',
          `plan ${JSON.stringify(plan.key)} of project ${JSON.stringify(plan.project)} for ${plan.shardCount} shards was made, at ${plan.createdAt}, for other files than this shard was given: this shard ${difference}. Every shard of a plan must be given the same files (the same paths or globs, from the same folder, on the same commit); a job that runs other files needs a plan key of its own (--plan-key, TESTRUN_PLAN_KEY).`,
        ),
      );
  }
  const { filesHash: _hash, files, ...rest } = plan;
  const shown = request.shard === undefined ? files : files.filter((file) => file.shard === request.shard);
  return reply.code(status).send({ ...rest, files: shown });
}

/** What the schema cannot say: a shard within its count, each file once. */
function refuseBadRequest(body: PlanRequestBody): void {
  if (body.shard !== undefined && body.shard > body.shardCount) {
    throw new ApiError(400, 'invalid_request', `shard ${body.shard} is above shardCount ${body.shardCount}`);
  }
  const seen = new Set<string>();
  for (const [index, { file }] of body.files.entries()) {
    if (seen.has(file)) {
      throw new ApiError(
        400,
        'invalid_request',
        `files/${index}/file repeats ${JSON.stringify(file.slice(0, 200))}: name each file once`,
      );
    }
    seen.add(file);
  }
}

const label = { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH, pattern: '\\S' } as const;

const planBodySchema = {
  type: 'object',
  required: ['key', 'project', 'shardCount', 'files'],
  additionalProperties: false,
  properties: {
    key: { type: 'string', pattern: '^[\\x21-\\x7e][\\x20-\\x7e]{0,199}$' },
    project: label,
    shardCount: { type: 'integer', minimum: 1, maximum: 1_000 },
    shard: { type: 'integer', minimum: 1, maximum: 1_000 },
    files: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_PLAN_FILES,
      items: {
        type: 'object',
        required: ['file', 'size'],
        additionalProperties: false,
        properties: {
          file: { type: 'string', minLength: 1, maxLength: 4_096 },
          size: { type: 'integer', minimum: 0 },
        },
      },
    },
    branch: label,
    defaultBranch: label,
  },
} as const;
