import net from 'node:net';
import {
  createServer,
  type FaultAction,
  type FaultHook,
  type RouteName,
  type ServerOptions,
  type TestrunServer,
} from '@testrun/server';
import { whenTheTestEnds } from './test-scope.js';

/**
 * A URL on which nothing listens, for a server that is down. The port is a free one below the
 * ephemeral ranges (Linux 32768+, macOS and Windows 49152+), where listen(0) never lands: a
 * port that was merely free a moment ago could be handed to another test's server meanwhile,
 * which then answered (401) where ECONNREFUSED was expected.
 */
export async function closedPortUrl(): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isFree(port)) return `http://127.0.0.1:${port}`;
  }
  throw new Error('closedPortUrl: no free port found between 20000 and 32000 on 127.0.0.1');
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The key every test server accepts unless a test asks for another. */
export const TEST_API_KEY = 'test-key-7f3a9c';

export interface TestServer {
  server: TestrunServer;
  url: string;
  /** The key to send: `apiKey`, else the first of `apiKeys`, else TEST_API_KEY. */
  apiKey: string;
  close(): Promise<void>;
}

/**
 * Starts a @testrun/server on 127.0.0.1 and an ephemeral port: the one way tests start
 * one. Started in a test or a `beforeEach`, it is closed when that test finishes; started
 * in a `beforeAll`, the suite closes it (`afterAll(() => server.close())`).
 */
export async function startTestServer(
  options: ServerOptions & { apiKey?: string } = {},
): Promise<TestServer> {
  const { apiKey: requestedKey, ...serverOptions } = options;
  const apiKey = requestedKey ?? serverOptions.apiKeys?.[0] ?? TEST_API_KEY;
  const apiKeys = [...new Set([apiKey, ...(serverOptions.apiKeys ?? [])])];
  const server = await createServer({ host: '127.0.0.1', port: 0, ...serverOptions, apiKeys });
  const started = { server, url: server.url, apiKey, close: () => server.close() };
  closeWhenTheTestEnds(started);
  return started;
}

function closeWhenTheTestEnds(server: TestServer): void {
  // Not in a test (a beforeAll): the suite closes it.
  whenTheTestEnds(() => server.close());
}

export interface SeededFaultsOptions {
  seed: number;
  /** Probabilities in [0, 1] per request; their sum must not exceed 1. */
  rates: { status5xx?: number; drop?: number };
  /** Routes that get faults. Default: the two writes, createRun and submitResults. */
  routes?: RouteName[];
}

const serverErrors = [500, 502, 503, 504] as const;

/**
 * A fault hook that fails a random but reproducible share of requests: the same seed
 * and the same order of requests give the same faults. A drop is 'before' or 'after'
 * at random, so a client sees both lost requests and lost responses.
 */
export function seededFaults({
  seed,
  rates,
  routes = ['createRun', 'submitResults'],
}: SeededFaultsOptions): FaultHook {
  const drop = rates.drop ?? 0;
  const status5xx = rates.status5xx ?? 0;
  if (drop < 0 || status5xx < 0 || drop + status5xx > 1) {
    throw new RangeError('seededFaults: rates must be >= 0 and add up to at most 1');
  }
  const random = mulberry32(seed);
  const faulty = new Set(routes);

  return ({ route }): FaultAction | undefined => {
    if (!faulty.has(route)) return undefined;
    const roll = random();
    if (roll < drop) return { drop: random() < 0.5 ? 'before' : 'after' };
    if (roll < drop + status5xx) return { status: pick(serverErrors, random()) };
    return undefined;
  };
}

/**
 * The faults every adapter's e2e runs its reporter through: the first results request answered
 * 429 with `Retry-After: 1`, then 5xx answers and dropped connections at random (seed 7: 25 % and
 * 10 % of the writes).
 */
export function misbehavingFaults(): FaultHook {
  const flaky = seededFaults({ seed: 7, rates: { status5xx: 0.25, drop: 0.1 } });
  return (request) =>
    request.route === 'submitResults' && request.n === 0
      ? { status: 429, headers: { 'retry-after': '1' } }
      : flaky(request);
}

/**
 * A fault hook of a service that refuses some results for what they hold: a results request
 * holding one that `refused` matches is answered `status` (400) with `message`, as a service
 * with rules of its own would answer a whole batch for one result it cannot take.
 */
export function refusingResults(
  refused: (result: { testSuite: string; testCase: string; status: string; duration: number }) => boolean,
  message = 'a result this service does not take',
  status = 400,
): FaultHook {
  return ({ route, body }) => {
    if (route !== 'submitResults') return undefined;
    const results = (body as { results?: unknown } | undefined)?.results;
    if (!Array.isArray(results) || !results.some(refused)) return undefined;
    return { status, body: { error: { code: 'invalid_request', message } } };
  };
}

function pick<T>(items: readonly T[], roll: number): T {
  return items[Math.floor(roll * items.length)] as T;
}

/** mulberry32: a tiny, well-distributed PRNG; returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A run's state as the server shows it, in the read API (`GET /api/v1/runs/{id}`) and on the
 * runs page (its card's `data-state`; undefined when the first page does not list the run).
 * Started with `abandonedAfterMs: 1`, a server shows every run that was not completed as
 * abandoned at once: a test then need not wait out the hour to tell an ended run from one
 * that will never end.
 */
export async function shownState(
  server: Pick<TestServer, 'url' | 'apiKey'>,
  runId: string,
): Promise<{ api: string; page: string | undefined }> {
  const answer = await fetch(`${server.url}/api/v1/runs/${encodeURIComponent(runId)}`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  const { state } = (await answer.json()) as { state: string };
  const page = await (
    await fetch(`${server.url}/`, { headers: { authorization: `Bearer ${server.apiKey}` } })
  ).text();
  const card = [...page.matchAll(/data-run-id="([^"]+)" data-state="([^"]+)"/g)].find(
    ([, id]) => id === runId.replace(/&/g, '&amp;').replace(/"/g, '&quot;'),
  );
  return { api: state, page: card?.[2] };
}
