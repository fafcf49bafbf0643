import type { FaultRequest } from '@testrun/server';
import { describe, expect, it, vi } from 'vitest';
import { createRun, post, result, startServer } from './client.js';

const socketError = { cause: { code: expect.stringMatching(/^(UND_ERR_SOCKET|ECONNRESET)$/) } };

describe('fault hook', () => {
  it('answers with the status, headers and body the hook returns, storing nothing', async () => {
    const server = await startServer({
      faults: () => ({ status: 503, headers: { 'retry-after': '2' }, body: { message: 'maintenance' } }),
    });

    const answer = await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });

    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(answer.body).toEqual({ message: 'maintenance' });
    expect(await server.store.runs()).toEqual([]);
  });

  it('answers an error status without a body in the usual error shape', async () => {
    const server = await startServer({ faults: () => ({ status: 500 }) });
    const answer = await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });
    expect(answer.body).toEqual({ error: { code: 'injected_fault', message: 'fault injected: HTTP 500' } });
  });

  it('tells the hook the route, the run id, the count of earlier requests to the route and the parsed body', async () => {
    const seen: FaultRequest[] = [];
    const server = await startServer({ faults: (request) => void seen.push(request) });
    const runId = await createRun(server);
    const body = { results: [result()] };
    await post(server, `/api/v1/runs/${runId}/results`, body);
    await post(server, `/api/v1/runs/${runId}/results`, body);

    expect(seen.map(({ route, n, runId }) => ({ route, n, runId }))).toEqual([
      { route: 'createRun', n: 0, runId: undefined },
      { route: 'submitResults', n: 0, runId },
      { route: 'submitResults', n: 1, runId },
    ]);
    expect(seen[1]).toMatchObject({ method: 'POST', path: `/api/v1/runs/${runId}/results`, body });
    expect(seen[1]?.headers['content-type']).toBe('application/json');
  });

  it('waits delayMs before handling the request', async () => {
    const server = await startServer({ faults: () => ({ delayMs: 300 }) });
    const started = performance.now();
    const answer = await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });
    expect(answer.status).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('still handles a delayed request whose client timed out, and a retry with the same key stores once', async () => {
    const server = await startServer({
      faults: ({ route, n }) => (route === 'submitResults' && n === 0 ? { delayMs: 400 } : undefined),
    });
    const runId = await createRun(server);
    const body = { results: [result()] };
    const headers = { 'idempotency-key': 'batch-1' };

    const timedOut = post(server, `/api/v1/runs/${runId}/results`, body, {
      headers,
      signal: AbortSignal.timeout(50),
    });
    await expect(timedOut).rejects.toThrow();
    const retry = await post(server, `/api/v1/runs/${runId}/results`, body, { headers });
    await vi.waitFor(() => expect(server.requests[1]?.status).not.toBe('pending'), { timeout: 2000 });

    expect(retry.status).toBe(201);
    expect(await server.store.results(runId)).toHaveLength(1);
  });

  it("drop 'before': the client sees a socket error and nothing is stored", async () => {
    const server = await startServer({ faults: () => ({ drop: 'before' }) });

    const attempt = post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' });

    await expect(attempt).rejects.toMatchObject(socketError);
    expect(await server.store.runs()).toEqual([]);
    expect(server.requests[0]?.status).toBe('dropped');
  });

  it("drop 'after': the client sees a socket error but the request is stored, and a retry is replayed", async () => {
    const server = await startServer();
    const runId = await createRun(server);
    server.setFaults(({ n }) => (n === 0 ? { drop: 'after' } : undefined));
    const body = { results: [result()] };
    const headers = { 'idempotency-key': 'batch-1' };

    const lost = post(server, `/api/v1/runs/${runId}/results`, body, { headers });
    await expect(lost).rejects.toMatchObject(socketError);
    expect(await server.store.results(runId)).toHaveLength(1);

    const retry = await post(server, `/api/v1/runs/${runId}/results`, body, { headers });
    expect(retry.body).toEqual({ accepted: 1 });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await server.store.results(runId)).toHaveLength(1);
  });

  it('setFaults replaces the hook and undefined removes it', async () => {
    const server = await startServer({ faults: () => ({ status: 500 }) });
    const run = { project: 'shop', framework: 'vitest' };
    expect((await post(server, '/api/v1/runs', run)).status).toBe(500);

    server.setFaults(() => ({ status: 429 }));
    expect((await post(server, '/api/v1/runs', run)).status).toBe(429);

    server.setFaults(undefined);
    expect((await post(server, '/api/v1/runs', run)).status).toBe(201);
  });
});
