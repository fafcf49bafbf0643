import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AttachmentLedger } from '../attachments/attachment-ledger.js';
import { ApiError, runNotFound } from '../errors.js';
import { RUN_STATES, type RunState, runState } from '../ledger/run-state.js';
import type { Page, RunsFilter, SqlStore } from '../ledger/sql-store.js';
import type { RunWithCounts, StoredResult } from '../ledger/store.js';
import { attachmentPath, paths, runPagePath } from '../paths.js';

/** A page's size when `limit` is not given with a cursor, and the most one page holds. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** Unpaged answers (no `limit`, no `cursor`) read at most this many at a time from the database. */
const UNPAGED_CHUNK = 1000;

type Query = Record<string, string | string[] | undefined>;

/**
 * The read endpoints for people and tests: runs newest first with counts, one run, its results.
 *
 * Paged when asked: with `limit` or `cursor`, the runs (`?project=&framework=&tag=&branch=&state=`)
 * and a run's results answer `{ runs | results, next }`, `next` being the cursor of the next
 * page (null on the last) and the same URL in a `Link: <…>; rel="next"` header. Without
 * either they answer the whole list as a bare array, as before paging existed: the tests,
 * tools and docs that read it keep working (docs/design/server-storage.md#paging).
 */
export function registerReadApi(
  app: FastifyInstance,
  store: SqlStore,
  abandonedAfterMs: number,
  files?: AttachmentLedger,
): void {
  const withState = (run: RunWithCounts, now: number) => ({
    ...run,
    state: runState(run, now, abandonedAfterMs),
  });

  app.get<{ Querystring: Query }>(paths.runs, async (request, reply) => {
    const now = Date.now();
    const filter = runsFilter(request.query);
    const states = { now, abandonedAfterMs };
    const paging = pagingOf(request.query);
    if (!paging) {
      return sendAll(
        reply,
        (cursor) => store.runsPage(filter, { limit: UNPAGED_CHUNK, cursor }, states),
        (run) => withState(run, now),
      );
    }
    const page = await store.runsPage(filter, paging, states);
    return sendPage(reply, request.url, 'runs', page, (run) => withState(run, now));
  });

  // The run's page is linked as create-run links it: a CI summary written from this read
  // (the `read-runs` extension) links the page it was not told at create-run.
  app.get<{ Params: { id: string } }>(paths.run, async (request, reply) => {
    const run = await store.runWithCounts(request.params.id);
    if (!run) throw runNotFound(request.params.id);
    reply.header('link', `<${runPagePath(run.id)}>; rel="alternate"; type="text/html"`);
    return withState(run, Date.now());
  });

  app.get<{ Params: { id: string }; Querystring: Query }>(paths.runResults, async (request, reply) => {
    const runId = request.params.id;
    if (!(await store.run(runId))) throw runNotFound(runId);
    const paging = pagingOf(request.query);
    const show = withFileAddresses(runId, files ? await files.receivedHashes(runId) : new Set());
    if (!paging) {
      return sendAll(reply, (cursor) => store.resultsPage(runId, {}, { limit: UNPAGED_CHUNK, cursor }), show);
    }
    const page = await store.resultsPage(runId, {}, paging);
    return sendPage(reply, request.url, 'results', page, show);
  });
}

/**
 * A result as the read API shows it: each file it names with where to download it (the same
 * key reads it) and whether the server has received its bytes yet.
 */
function withFileAddresses(runId: string, received: ReadonlySet<string>) {
  return (result: StoredResult) =>
    result.attachments === undefined
      ? result
      : {
          ...result,
          attachments: result.attachments.map((file) => ({
            ...file,
            url: attachmentPath(runId, file.sha256),
            received: received.has(file.sha256),
          })),
        };
}

/**
 * The whole list as one JSON array, read from the database UNPAGED_CHUNK items at a time and
 * written as it is read: memory holds one chunk, however much is stored (the filters were
 * checked before, so what fails here is the database, and the client sees a cut answer).
 */
function sendAll<Item, Shown>(
  reply: FastifyReply,
  page: (cursor: string | undefined) => Promise<Page<Item>>,
  show: (item: Item) => Shown,
): FastifyReply {
  async function* chunks(): AsyncGenerator<string> {
    let cursor: string | undefined;
    let first = true;
    yield '[';
    do {
      const next = await page(cursor);
      for (const item of next.items) {
        yield `${first ? '' : ','}${JSON.stringify(show(item))}`;
        first = false;
      }
      cursor = next.next;
    } while (cursor !== undefined);
    yield ']';
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(chunks()));
}

function sendPage<Item, Shown>(
  reply: FastifyReply,
  url: string,
  name: 'runs' | 'results',
  page: Page<Item>,
  show: (item: Item) => Shown,
): FastifyReply {
  if (page.next !== undefined) reply.header('link', `<${nextUrl(url, page.next)}>; rel="next"`);
  return reply.send({ [name]: page.items.map(show), next: page.next ?? null });
}

/** The request's own URL with `cursor` set to the next page's. */
export function nextUrl(url: string, cursor: string): string {
  const parsed = new URL(url, 'http://server');
  parsed.searchParams.set('cursor', cursor);
  return `${parsed.pathname}${parsed.search}`;
}

function pagingOf(query: Query): { limit: number; cursor: string | undefined } | undefined {
  const limitText = single(query, 'limit');
  const cursor = single(query, 'cursor');
  if (limitText === undefined && cursor === undefined) return undefined;
  const limit = limitText === undefined ? DEFAULT_PAGE_SIZE : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new ApiError(400, 'invalid_request', `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  if (cursor !== undefined && !/^\d{1,15}$/.test(cursor)) {
    throw new ApiError(400, 'invalid_request', 'cursor must be the `next` of the previous page');
  }
  return { limit, cursor };
}

function runsFilter(query: Query): RunsFilter {
  const state = single(query, 'state');
  if (state !== undefined && !RUN_STATES.includes(state as RunState)) {
    throw new ApiError(400, 'invalid_request', `state must be one of ${RUN_STATES.join(', ')}`);
  }
  return {
    project: single(query, 'project'),
    framework: single(query, 'framework'),
    tag: single(query, 'tag'),
    branch: single(query, 'branch'),
    state: state as RunState | undefined,
  };
}

/** A query parameter given at most once; twice is a mistake worth saying. */
function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new ApiError(400, 'invalid_request', `${name} may be given once`);
  return value;
}
