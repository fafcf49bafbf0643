import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { createRun, patch, post, result, serverOn } from './client.js';

describe.each(storeEngines())('Idempotency-Key on $name', (engine) => {
  const startServer = serverOn(engine);
  it('replays the first answer for a retry with the same key and body, storing the results once', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const body = { results: [result(), result({ testCase: 'second' })] };
    const headers = { 'idempotency-key': 'batch-1' };

    const first = await post(server, `/api/v1/runs/${runId}/results`, body, { headers });
    const retry = await post(server, `/api/v1/runs/${runId}/results`, body, { headers });

    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await server.store.results(runId)).toHaveLength(2);
  });

  it('replays the same run, id and Location included, for a retried run creation', async () => {
    const server = await startServer();
    const body = { project: 'shop', framework: 'vitest', tags: [] };
    const headers = { 'idempotency-key': 'run-1' };

    const first = await post(server, '/api/v1/runs', body, { headers });
    const retry = await post(server, '/api/v1/runs', body, { headers });

    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('location')).toBe(first.headers.get('location'));
    expect(await server.store.runs()).toHaveLength(1);
  });

  it('answers 422 idempotency_key_reused when the key comes back with a different body', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const headers = { 'idempotency-key': 'batch-1' };
    await post(server, `/api/v1/runs/${runId}/results`, { results: [result()] }, { headers });

    const reused = await post(
      server,
      `/api/v1/runs/${runId}/results`,
      { results: [result({ duration: 99 })] },
      {
        headers,
      },
    );

    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ error: { code: 'idempotency_key_reused' } });
    expect(await server.store.results(runId)).toHaveLength(1);
  });

  it('treats the same key on another path as a different key', async () => {
    const server = await startServer();
    const [runA, runB] = [await createRun(server), await createRun(server)];
    const headers = { 'idempotency-key': 'same-key' };

    const toA = await post(server, `/api/v1/runs/${runA}/results`, { results: [result()] }, { headers });
    const toB = await post(server, `/api/v1/runs/${runB}/results`, { results: [result()] }, { headers });

    expect([toA.status, toB.status]).toEqual([201, 201]);
    expect(toB.headers.get('idempotent-replayed')).toBeNull();
    expect(await server.store.allResults()).toHaveLength(2);
  });

  it('does not save a failed answer, so the key stays free', async () => {
    const server = await startServer();
    const headers = { 'idempotency-key': 'batch-1' };
    const path = '/api/v1/runs/no-such-run/results';

    const failed = await post(server, path, { results: [result()] }, { headers });
    const otherBody = await post(server, path, { results: [result({ duration: 1 })] }, { headers });

    expect(failed.status).toBe(404);
    expect(otherBody.status).toBe(404);
  });

  it('replays a run completion for its retry, and answers 422 when the key comes back to end the run another way', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const headers = { 'idempotency-key': 'end-1' };

    const first = await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' }, { headers });
    const retry = await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' }, { headers });
    // The run's end now refuses `failed` (409); the key's saved answer is found all the same.
    const otherEnd = await patch(server, `/api/v1/runs/${runId}`, { status: 'failed' }, { headers });

    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(otherEnd.status).toBe(422);
    expect(otherEnd.body).toMatchObject({ error: { code: 'idempotency_key_reused' } });
    expect(await server.store.endOf(runId)).toMatchObject({ status: 'completed' });
  });

  it('answers 400 for a key that is not 1 to 255 visible characters', async () => {
    const server = await startServer();
    const answer = await post(
      server,
      '/api/v1/runs',
      { project: 'shop', framework: 'vitest' },
      {
        headers: { 'idempotency-key': 'k'.repeat(256) },
      },
    );
    expect(answer.status).toBe(400);
    expect(await server.store.runs()).toEqual([]);
  });
});
