import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createRun, get, KEY, post, result, startServer } from './client.js';

describe('requests log', () => {
  it('records each request with its route, answer, key validity, idempotency key, user agent and result count', async () => {
    const server = await startServer();
    const before = Date.now();
    const runId = await createRun(server);
    await post(
      server,
      `/api/v1/runs/${runId}/results?source=ci`,
      { results: [result(), result()] },
      {
        headers: { 'idempotency-key': 'batch-1', 'user-agent': 'testrun/0.1.0 (vitest/4.1.0; node/20.20.0)' },
      },
    );
    await get(server, '/api/v1/runs', { key: 'wrong' });

    expect(server.requests).toEqual([
      expect.objectContaining({ method: 'POST', path: '/api/v1/runs', route: 'createRun', status: 201 }),
      {
        method: 'POST',
        path: `/api/v1/runs/${runId}/results`,
        route: 'submitResults',
        status: 201,
        at: expect.any(Number),
        answeredAt: expect.any(Number),
        authorized: true,
        connection: expect.any(Number),
        idempotencyKey: 'batch-1',
        userAgent: 'testrun/0.1.0 (vitest/4.1.0; node/20.20.0)',
        resultCount: 2,
      },
      expect.objectContaining({
        method: 'GET',
        path: '/api/v1/runs',
        route: 'read',
        status: 401,
        authorized: false,
      }),
    ]);
    expect(server.requests[0]?.at).toBeGreaterThanOrEqual(before);
    expect(server.requests[0]?.answeredAt).toBeGreaterThanOrEqual(server.requests[0]?.at ?? Infinity);
  });

  it('numbers connections as they are accepted: keep-alive requests share one', async () => {
    const server = await startServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const read = () =>
      new Promise<void>((resolve, reject) => {
        http
          .get(`${server.url}/api/v1/runs`, { agent }, (response) => response.resume().on('end', resolve))
          .on('error', reject);
      });
    await read();
    await read();
    agent.destroy();
    await get(server, '/api/v1/runs');
    expect(server.requests.map((request) => request.connection)).toEqual([1, 1, 2]);
  });

  it('keeps the latest requests only, at least requestLogSize and never twice as many', async () => {
    const server = await startServer({ requestLogSize: 3 });
    for (let n = 0; n < 10; n += 1) await get(server, `/api/v1/runs/run-${n}`);
    const paths = server.requests.map((request) => request.path);
    expect(paths.length).toBeGreaterThanOrEqual(3);
    expect(paths.length).toBeLessThan(6);
    expect(paths.at(-1)).toBe('/api/v1/runs/run-9');
    expect(paths).toEqual(
      Array.from({ length: paths.length }, (_, i) => `/api/v1/runs/run-${10 - paths.length + i}`),
    );
  });

  it('never records the API key', async () => {
    const server = await startServer();
    await createRun(server);
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests)).not.toContain(KEY);
  });

  it('classifies pages and unknown paths as other', async () => {
    const server = await startServer();
    await get(server, '/');
    await get(server, '/favicon.ico');
    expect(server.requests.map(({ route, status }) => ({ route, status }))).toEqual([
      { route: 'other', status: 200 },
      { route: 'other', status: 404 },
    ]);
  });
});
