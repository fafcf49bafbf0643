import type { FastifyInstance } from 'fastify';
import { ApiError, runNotFound } from '../errors.js';
import {
  type ChangeVia,
  MAX_QUARANTINED,
  type Quarantine,
  type QuarantineChange,
  TooManyQuarantined,
  testKey,
} from '../ledger/quarantines.js';
import type { StoreWriter } from '../ledger/sql-store.js';
import { handleWrite } from './idempotent-write.js';
import { unstorableText } from './storable-text.js';
import { MAX_LABEL_LENGTH, type Writes } from './write.js';

// Quarantine through the API (docs/design/quarantine.md): a project's tests whose failures do not fail
// the build, set and lifted with the API key (a read key is 403, as every write), read with
// either key; and the list a run's reporters match their failures with.
//
//   POST /api/v1/quarantines              { project, testSuite, testCase, reason, owner?, days? | expiresAt?, by? }
//   POST /api/v1/quarantines/lift         { project, testSuite, testCase, reason, by? }
//   GET  /api/v1/quarantines?project=…    the project's quarantines in force
//   GET  /api/v1/quarantines/changes?project=…[&suite=…&test=…][&limit=…&cursor=…]
//   GET  /api/v1/runs/{id}/quarantine     { runId, project, tests: [{ key, expiresAt }], expired: [{ key, expiredAt }] }

export const QUARANTINE_PATHS = {
  quarantines: '/api/v1/quarantines',
  lift: '/api/v1/quarantines/lift',
  changes: '/api/v1/quarantines/changes',
  runList: '/api/v1/runs/:id/quarantine',
} as const;

/** How long a quarantine lasts when nobody says: 30 days. There is none without an expiry. */
export const DEFAULT_QUARANTINE_DAYS = 30;
/** The longest a quarantine may be set for at once: a year. It may be renewed. */
export const MAX_QUARANTINE_DAYS = 365;
export const MAX_REASON_LENGTH = 1_000;
export const MAX_PERSON_LENGTH = 200;
/** A test's names as a quarantine keeps them: reporters cut theirs well below (docs/naming.md). */
export const MAX_TEST_NAME_LENGTH = 8_192;

/** Who changed a quarantine through the API when the request does not say. */
export const UNNAMED_API_USER = 'someone with the API key';

/**
 * Results core makes for what is not a test (docs/naming.md): a file that failed outside its
 * tests, an error outside any test and file. The build fails for them whatever is quarantined,
 * so they cannot be quarantined. Written here as well as in core: the server depends on nothing
 * of ours.
 */
const FILE_FAILURE_CASE = '(file failed to run)';
const RUN_SUITE = '(run)';

export interface QuarantineRequest {
  project: string;
  testSuite: string;
  testCase: string;
  reason: string;
  owner?: string | undefined;
  days?: number | undefined;
  expiresAt?: string | undefined;
  by?: string | undefined;
}

export interface LiftRequest {
  project: string;
  testSuite: string;
  testCase: string;
  reason: string;
  by?: string | undefined;
}

const label = { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH, pattern: '\\S' } as const;
const testName = { type: 'string', minLength: 1, maxLength: MAX_TEST_NAME_LENGTH, pattern: '\\S' } as const;
const reason = { type: 'string', minLength: 1, maxLength: MAX_REASON_LENGTH, pattern: '\\S' } as const;
const person = { type: 'string', maxLength: MAX_PERSON_LENGTH } as const;

const quarantineBodySchema = {
  type: 'object',
  required: ['project', 'testSuite', 'testCase', 'reason'],
  additionalProperties: false,
  properties: {
    project: label,
    testSuite: testName,
    testCase: testName,
    reason,
    owner: person,
    by: person,
    days: { type: 'integer', minimum: 1, maximum: MAX_QUARANTINE_DAYS },
    expiresAt: { type: 'string', maxLength: 40 },
  },
} as const;

const liftBodySchema = {
  type: 'object',
  required: ['project', 'testSuite', 'testCase', 'reason'],
  additionalProperties: false,
  properties: { project: label, testSuite: testName, testCase: testName, reason, by: person },
} as const;

/**
 * The checks a schema cannot say, for the API and the pages alike: a result core makes is no
 * test, and the expiry is `days` or a time in the future, at most MAX_QUARANTINE_DAYS away.
 * Answers the expiry as the server writes times.
 */
export function checkQuarantine(request: QuarantineRequest, now: number): { expiresAt: string } {
  refuseWhatIsNoTest(request);
  if (request.days !== undefined && request.expiresAt !== undefined) {
    throw new ApiError(400, 'invalid_request', 'give days or expiresAt, not both');
  }
  const latest = now + MAX_QUARANTINE_DAYS * 86_400_000;
  if (request.expiresAt === undefined) {
    const days = request.days ?? DEFAULT_QUARANTINE_DAYS;
    return { expiresAt: new Date(now + days * 86_400_000).toISOString() };
  }
  const at = Date.parse(request.expiresAt);
  if (!/^\d{4}-\d{2}-\d{2}/.test(request.expiresAt) || Number.isNaN(at)) {
    throw new ApiError(
      400,
      'invalid_request',
      'expiresAt must be a date or time in ISO 8601, e.g. 2030-01-31 or 2030-01-31T12:00:00Z',
    );
  }
  if (at <= now) throw new ApiError(400, 'invalid_request', 'expiresAt must be in the future');
  if (at > latest) {
    throw new ApiError(
      400,
      'invalid_request',
      `expiresAt must be at most ${MAX_QUARANTINE_DAYS} days away: a quarantine is renewed, not forgotten`,
    );
  }
  return { expiresAt: new Date(at).toISOString() };
}

export function refuseWhatIsNoTest({ testSuite, testCase }: { testSuite: string; testCase: string }): void {
  if (testCase === FILE_FAILURE_CASE || testSuite === RUN_SUITE) {
    throw new ApiError(
      400,
      'not_a_test',
      testCase === FILE_FAILURE_CASE
        ? `"${FILE_FAILURE_CASE}" is a file that failed outside its tests, not a test: it cannot be quarantined, and it fails the build whatever is`
        : `"${RUN_SUITE}" holds errors outside any test and file, not tests: they cannot be quarantined, and they fail the build whatever is`,
    );
  }
}

/** Sets a quarantine in a write's transaction: the answer for the API and the pages alike. */
export async function writeQuarantine(
  tx: StoreWriter,
  request: QuarantineRequest,
  via: ChangeVia,
  by: string,
): Promise<{ quarantine: Quarantine; change: QuarantineChange }> {
  const now = Date.now();
  const { expiresAt } = checkQuarantine(request, now);
  try {
    return await tx.quarantine({
      project: request.project,
      testSuite: request.testSuite,
      testCase: request.testCase,
      reason: request.reason.trim(),
      owner: request.owner?.trim() || undefined,
      expiresAt,
      by,
      via,
      at: new Date(now).toISOString(),
    });
  } catch (error) {
    if (error instanceof TooManyQuarantined) {
      throw new ApiError(
        409,
        'too_many_quarantined',
        `project ${JSON.stringify(request.project.slice(0, 100))} already has ${MAX_QUARANTINED} tests quarantined: lift some (fixed, or expired) before quarantining more`,
      );
    }
    throw error;
  }
}

/** Lifts a quarantine in a write's transaction; 404 when the test has none in force. */
export async function writeLift(
  tx: StoreWriter,
  request: LiftRequest,
  via: ChangeVia,
  by: string,
): Promise<{ quarantine: Quarantine; change: QuarantineChange }> {
  const lifted = await tx.liftQuarantine({
    project: request.project,
    testSuite: request.testSuite,
    testCase: request.testCase,
    reason: request.reason.trim(),
    by,
    via,
    at: new Date().toISOString(),
  });
  if (!lifted) {
    throw new ApiError(
      404,
      'not_quarantined',
      `${JSON.stringify(request.testCase.slice(0, 200))} in ${JSON.stringify(request.testSuite.slice(0, 200))} is not quarantined in project ${JSON.stringify(request.project.slice(0, 100))}`,
    );
  }
  return lifted;
}

async function refuseUnstorableText(request: { body: unknown }): Promise<void> {
  const refused = unstorableText(request.body);
  if (refused) throw refused;
}

type Query = Record<string, string | string[] | undefined>;

export function registerQuarantineApi(app: FastifyInstance, writes: Writes): void {
  const { store } = writes;
  const json = { 'content-type': 'application/json; charset=utf-8' };

  app.post<{ Body: QuarantineRequest }>(
    QUARANTINE_PATHS.quarantines,
    { schema: { body: quarantineBodySchema }, preHandler: refuseUnstorableText },
    (request, reply) =>
      handleWrite(request, reply, store, writes.inFlight, async (tx) => {
        const done = await writeQuarantine(tx, request.body, 'api', byOf(request.body.by));
        return { status: done.change.action === 'quarantined' ? 201 : 200, headers: json, body: done };
      }),
  );

  app.post<{ Body: LiftRequest }>(
    QUARANTINE_PATHS.lift,
    { schema: { body: liftBodySchema }, preHandler: refuseUnstorableText },
    (request, reply) =>
      handleWrite(request, reply, store, writes.inFlight, async (tx) => {
        const done = await writeLift(tx, request.body, 'api', byOf(request.body.by));
        return { status: 200, headers: json, body: done };
      }),
  );

  app.get<{ Querystring: Query }>(QUARANTINE_PATHS.quarantines, async (request) => {
    const project = requiredProject(request.query);
    return { project, quarantines: await store.quarantines(project) };
  });

  app.get<{ Querystring: Query }>(QUARANTINE_PATHS.changes, async (request) => {
    const project = requiredProject(request.query);
    const suite = single(request.query, 'suite');
    const test = single(request.query, 'test');
    if ((suite === undefined) !== (test === undefined)) {
      throw new ApiError(400, 'invalid_request', 'give suite and test together, or neither');
    }
    const limitText = single(request.query, 'limit') ?? '100';
    const cursor = single(request.query, 'cursor') ?? '0';
    if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 1000) {
      throw new ApiError(400, 'invalid_request', 'limit must be a whole number from 1 to 1000');
    }
    if (!/^\d{1,9}$/.test(cursor)) {
      throw new ApiError(400, 'invalid_request', 'cursor must be the `next` of the previous page');
    }
    const limit = Number(limitText);
    const offset = Number(cursor);
    const page = await store.quarantineChanges(project, {
      key: suite === undefined || test === undefined ? undefined : testKey(suite, test),
      limit,
      offset,
    });
    return { project, changes: page.changes, next: page.more ? String(offset + limit) : null };
  });

  app.get<{ Params: { id: string } }>(QUARANTINE_PATHS.runList, async (request) => {
    const run = await store.run(request.params.id);
    if (!run) throw runNotFound(request.params.id);
    return { runId: run.id, project: run.project, ...(await store.quarantineList(run.project)) };
  });
}

function byOf(by: string | undefined): string {
  return by?.trim() || UNNAMED_API_USER;
}

function requiredProject(query: Query): string {
  const project = single(query, 'project');
  if (project === undefined || project.trim() === '') {
    throw new ApiError(400, 'invalid_request', 'name the project: ?project=…');
  }
  return project;
}

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new ApiError(400, 'invalid_request', `${name} may be given once`);
  return value;
}
