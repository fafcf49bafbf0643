import type { RunTally, TalliedResult } from './tally.js';

// A run as a service that offers reads answers it (the `read-runs` extension:
// docs/design/ci-summary.md#the-tally): `GET {base}/api/v1/runs/{id}`, then its results page by
// page, `GET {base}/api/v1/runs/{id}/results?limit=…&cursor=…` answering `{ results, next }`. Each
// page goes into the tally and is dropped, so a run of any size is read in bounded memory. The
// requests are made by the caller (`get`, with its client, retries and deadline): this module stays
// free of core's stateful modules (tally.ts).

/** What `get` answers: the body of a 2xx, or why there is none. */
export type ReadAnswer =
  | { ok: true; body: string; pageUrl: string | undefined }
  | { ok: false; problem: string };
export type Get = (path: string) => Promise<ReadAnswer>;

/** The run's fields a summary shows, as the service answers them. */
export interface ServiceRun {
  id: string;
  project: string | undefined;
  framework: string | undefined;
  createdAt: string | undefined;
  /** running, completed, failed, interrupted, abandoned: where the service says. */
  state: string | undefined;
  endedAt: string | undefined;
  lastReceivedAt: string | undefined;
}

/** Results asked for per page at first; halved while a page's answer is cut short by the client's size bound. */
export const FIRST_PAGE_SIZE = 500;

/** Pages read at most: a service whose cursors never end does not keep the job waiting. */
const MAX_PAGES = 100_000;

/** The client keeps this much of an answer at most (http/answer.ts): a page that long was cut. */
export const ANSWER_BOUND_BYTES = 1024 * 1024;

export async function readRun(
  get: Get,
  runId: string,
  tally: RunTally,
): Promise<{ run: ServiceRun; pageUrl: string | undefined } | { problem: string }> {
  const runPath = `/api/v1/runs/${encodeURIComponent(runId)}`;
  const answer = await get(runPath);
  if (!answer.ok) return { problem: answer.problem };
  const run = readServiceRun(answer.body, runId);
  if (!run) return { problem: `GET ${runPath} did not answer a run` };
  let limit = FIRST_PAGE_SIZE;
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const query = `limit=${limit}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page = await get(`${runPath}/results?${query}`);
    if (!page.ok) return { problem: page.problem };
    const read = readPage(page.body);
    if (read === undefined) {
      if (Buffer.byteLength(page.body) >= ANSWER_BOUND_BYTES - 4 && limit > 1) {
        limit = Math.max(1, Math.floor(limit / 2));
        continue;
      }
      return { problem: `GET ${runPath}/results did not answer results` };
    }
    tally.addAll(read.results);
    if (read.next === undefined || read.next === cursor) return { run, pageUrl: answer.pageUrl };
    cursor = read.next;
  }
  return { run, pageUrl: answer.pageUrl };
}

function readServiceRun(body: string, runId: string): ServiceRun | undefined {
  const value = parse(body);
  if (!isObject(value)) return undefined;
  const data = isObject(value.data) ? value.data : isObject(value.run) ? value.run : value;
  const text = (field: unknown) => (typeof field === 'string' ? field : undefined);
  const end = isObject(data.end) ? data.end : {};
  return {
    id: text(data.id) ?? (typeof data.id === 'number' ? String(data.id) : runId),
    project: text(data.project),
    framework: text(data.framework),
    createdAt: text(data.createdAt),
    state: text(data.state) ?? text(end.status),
    endedAt: text(end.endedAt),
    lastReceivedAt: text(data.lastReceivedAt),
  };
}

/** A page `{ results, next }`, or the whole list as a bare array (a service that does not page). */
function readPage(body: string): { results: TalliedResult[]; next: string | undefined } | undefined {
  const value = parse(body);
  const list = Array.isArray(value) ? value : isObject(value) ? value.results : undefined;
  if (!Array.isArray(list)) return undefined;
  const results = list.filter(isResult);
  const next =
    isObject(value) && (typeof value.next === 'string' || typeof value.next === 'number')
      ? String(value.next)
      : undefined;
  return { results, next };
}

function isResult(value: unknown): value is TalliedResult {
  return (
    isObject(value) &&
    typeof value.testSuite === 'string' &&
    typeof value.testCase === 'string' &&
    typeof value.status === 'string' &&
    typeof value.duration === 'number'
  );
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
