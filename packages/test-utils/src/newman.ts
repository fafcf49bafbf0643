import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { cleanEnv } from './environment.js';
import { FIXTURES_DIR, REPORTER_OPTIONS_VAR } from './fixtures.js';
import { type ExpectedResult, resultsIn } from './parity-expected.js';
import { frameworkBin, type RunOutcome, runProcess } from './process.js';
import type { RunOptions } from './run-framework.js';
import { closedPortUrl } from './server.js';

/** Newman's fixture: Postman collections run against startCollectionServer(). */
export const newmanFixtures = {
  dir: path.join(FIXTURES_DIR, 'newman'),
  /**
   * Folders (users, orders > history), a request without tests, one whose only assertion is
   * skipped, a test script that throws, a request nobody answers; with users.csv (two
   * iterations) `get user` fails its assertions in the second: NEWMAN_SHOP_RESULTS.
   */
  shop: path.join(FIXTURES_DIR, 'newman', 'shop.postman_collection.json'),
  /** The iteration data of the shop collection: two rows. */
  users: path.join(FIXTURES_DIR, 'newman', 'users.csv'),
  /** Three quick requests, then one the server answers once their results are stored (`/stored?count=3`). */
  streaming: path.join(FIXTURES_DIR, 'newman', 'streaming.postman_collection.json'),
  /** A quick request, then one the server never answers (`/wait`): a job cancelled meanwhile. */
  cancelled: path.join(FIXTURES_DIR, 'newman', 'cancelled.postman_collection.json'),
} as const;

/** The name Newman loads the reporter by (`-r`): @testrun/newman-reporter-testrun. */
export const NEWMAN_REPORTER = '@testrun/testrun';

/** What the shop collection stores with users.csv (two iterations); todo never occurs. */
export const NEWMAN_SHOP_RESULTS: readonly ExpectedResult[] = [1, 2].flatMap((iteration) =>
  resultsIn('Shop API', [
    [`users > get user (iteration ${iteration})`, iteration === 1 ? 'passed' : 'failed'],
    [`users > list users (iteration ${iteration})`, 'passed'],
    [`orders > create order (iteration ${iteration})`, 'passed'],
    [`orders > history > list orders (iteration ${iteration})`, 'passed'],
    [`health (iteration ${iteration})`, 'passed'],
    [`checks the version later (iteration ${iteration})`, 'skipped'],
    [`broken script (iteration ${iteration})`, 'failed'],
    [`unreachable (iteration ${iteration})`, 'failed'],
  ]),
);

export interface CollectionServer {
  url: string;
  /** A URL nobody answers, for the collection's `unreachable` request. */
  unreachableUrl: string;
  close(): Promise<void>;
}

/**
 * The API the fixture collections call, on loopback: users 1 (200) and 2 (404), orders, health;
 * `/stored?count=N` answers 200 once `stored()` reaches N (else 504 after 10 s), `/wait` never
 * answers. Closed when the test ends (or by the suite, from a beforeAll).
 */
export async function startCollectionServer(
  stored: () => Promise<number> = async () => 0,
): Promise<CollectionServer> {
  const waiting = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/users/1') return json(200, { id: 1, name: 'Ada' });
    if (url.pathname === '/users') return json(200, [{ id: 1, name: 'Ada' }]);
    if (url.pathname === '/orders')
      return json(request.method === 'POST' ? 201 : 200, request.method === 'POST' ? { id: 7 } : []);
    if (url.pathname === '/health') return json(200, { ok: true });
    if (url.pathname === '/wait') {
      waiting.add(response);
      return;
    }
    if (url.pathname === '/stored') {
      const count = Number(url.searchParams.get('count'));
      const deadline = Date.now() + 10_000;
      const poll = async (): Promise<void> => {
        if ((await stored()) >= count) return json(200, { stored: count });
        if (Date.now() > deadline) return json(504, { stored: await stored() });
        setTimeout(() => void poll(), 50);
      };
      return void poll();
    }
    return json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const started = {
    url: `http://127.0.0.1:${port}`,
    unreachableUrl: await closedPortUrl(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of waiting) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  try {
    onTestFinished(() => started.close());
  } catch {
    // Not in a test: a beforeAll, whose suite closes it.
  }
  return started;
}

/**
 * `newman run <collection> -r cli,@testrun/testrun` in the Newman fixture, as a real child
 * process, with the collection server's URLs as environment variables (`baseUrl`,
 * `unreachableUrl`). `args` come after the collection (`-d users.csv`); `withoutReporter` runs
 * Newman's `cli` reporter alone. Reporter options in REPORTER_OPTIONS_VAR (JSON) are given as
 * `--reporter-@testrun/testrun-<option>=<value>`, the way Newman's command line takes them.
 */
export function runNewman({
  collection,
  server,
  args = [],
  withoutReporter = false,
  env = {},
  bin = frameworkBin('newman'),
  cwd = newmanFixtures.dir,
  nodePath,
  timeoutMs,
  onSpawn,
}: Omit<RunOptions, 'cwd'> & {
  collection: string;
  server: CollectionServer;
  cwd?: string;
}): Promise<RunOutcome> {
  const options = JSON.parse(env[REPORTER_OPTIONS_VAR] ?? '{}') as Record<string, unknown>;
  const optionArgs = Object.entries(options).map(
    ([name, value]) =>
      `--reporter-${NEWMAN_REPORTER}-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  const reporters = withoutReporter ? 'cli' : `cli,${NEWMAN_REPORTER}`;
  const variables = [
    '--env-var',
    `baseUrl=${server.url}`,
    '--env-var',
    `unreachableUrl=${server.unreachableUrl}`,
  ];
  return runProcess(
    nodePath ?? process.execPath,
    [bin, 'run', collection, '-r', reporters, ...variables, ...args, ...(withoutReporter ? [] : optionArgs)],
    { cwd, env: cleanEnv(env), timeoutMs, onSpawn },
  );
}
