import type { ServerOptions, TestrunServer } from '@testrun/server';
import { type StoreEngine, startTestServer } from '@testrun/test-utils';
import { onTestFinished } from 'vitest';

// Real HTTP against a real server on loopback: the helpers only save typing.

export const KEY = 'server-test-key';

/** A test server (test-utils' startTestServer) that accepts KEY, closed when the current test finishes. */
export async function startServer(options: ServerOptions = {}): Promise<TestrunServer> {
  // Keys given replace KEY, as createServer's apiKeys do.
  return (await startTestServer(options.apiKeys ? options : { apiKey: KEY, ...options })).server;
}

/**
 * startServer on one engine of test-utils' storeEngines(), for a store test that must hold on
 * SQLite and PostgreSQL: `describe.each(storeEngines())('… on $name', (engine) => { const
 * startServer = serverOn(engine); … })`. The servers of one test share one fresh database, as
 * a restart on the same data does.
 */
export function serverOn(engine: StoreEngine): typeof startServer {
  let database: ReturnType<StoreEngine['target']> | undefined;
  return async (options = {}) => {
    if (!database) {
      database = engine.target();
      try {
        onTestFinished(() => {
          database = undefined;
        });
      } catch {
        // Started in a beforeAll: its database serves the suite.
      }
    }
    return startServer({ ...(await database), ...options });
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** POSTs a value as JSON (a string is sent as it is) with the bearer KEY unless told otherwise. */
export function post(server: TestrunServer, path: string, body: unknown, options: RequestOptions = {}) {
  return send(server, path, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...authorization(options.key), ...options.headers },
    signal: options.signal ?? null,
  });
}

/** PATCHes a value as JSON, as `post` does. */
export function patch(server: TestrunServer, path: string, body: unknown, options: RequestOptions = {}) {
  return send(server, path, {
    method: 'PATCH',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...authorization(options.key), ...options.headers },
  });
}

export function get(server: TestrunServer, path: string, options: RequestOptions = {}) {
  return send(server, path, { headers: { ...authorization(options.key), ...options.headers } });
}

export async function createRun(
  server: TestrunServer,
  run: object = { project: 'shop', framework: 'vitest' },
) {
  const answer = await post(server, '/api/v1/runs', run);
  if (answer.status !== 201) throw new Error(`create run failed: ${answer.status} ${answer.text}`);
  return (answer.body as { id: string }).id;
}

export function result(overrides: object = {}) {
  return {
    testSuite: 'src/cart.test.ts',
    testCase: 'cart > adds an item',
    status: 'passed',
    duration: 12,
    ...overrides,
  };
}

async function send(server: TestrunServer, path: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: parseJson(text), text };
}

function authorization(key: string | null | undefined): Record<string, string> {
  if (key === null) return {};
  return { authorization: `Bearer ${key ?? KEY}` };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
