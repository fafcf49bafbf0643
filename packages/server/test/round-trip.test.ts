import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { createRun, get, post, result, serverOn } from './client.js';

describe.each(storeEngines())('a run and its results on $name', (engine) => {
  const startServer = serverOn(engine);
  it('creates a run, accepts its results and reads both back', async () => {
    const server = await startServer();

    const created = await post(server, '/api/v1/runs', {
      project: 'shop',
      framework: 'vitest',
      tags: ['ci'],
    });
    expect(created.status).toBe(201);
    const run = created.body as { id: string };
    expect(run).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      project: 'shop',
      framework: 'vitest',
      tags: ['ci'],
      createdAt: expect.any(String),
      extensions: [
        'failure-details',
        'complete-run',
        'read-runs',
        'shard-plans',
        'attachments',
        'quarantine',
      ],
      attachments: { maxFileBytes: 100 * 1024 * 1024, maxRunBytes: 1024 * 1024 * 1024 },
      results: { maxResults: 1000, maxBytes: 5 * 1024 * 1024 },
    });
    expect(created.headers.get('location')).toBe(`/api/v1/runs/${run.id}`);

    const results = [result(), result({ testCase: 'cart > rejects a negative quantity', status: 'failed' })];
    const submitted = await post(server, `/api/v1/runs/${run.id}/results`, { results });
    expect(submitted.status).toBe(201);
    expect(submitted.body).toEqual({ accepted: 2 });

    const readResults = await get(server, `/api/v1/runs/${run.id}/results`);
    expect(readResults.body).toEqual(results.map((r) => ({ runId: run.id, ...r })));
    const readRun = await get(server, `/api/v1/runs/${run.id}`);
    const {
      extensions: _,
      attachments: __,
      results: ___,
      ...stored
    } = run as { extensions?: string[]; attachments?: object; results?: object };
    expect(readRun.body).toMatchObject({ ...stored, total: 2, totalDuration: 24 });
    // Linked as create-run links it: a CI summary written from this read links the page.
    expect(readRun.headers.get('link')).toBe(created.headers.get('link'));
    expect(await server.store.results(run.id)).toHaveLength(2);
  });

  it('defaults tags to an empty list', async () => {
    const server = await startServer();
    const created = await post(server, '/api/v1/runs', { project: 'shop', framework: 'jest' });
    expect(created.body).toMatchObject({ tags: [] });
  });

  it('lists runs newest first with counts by status and total duration', async () => {
    const server = await startServer();
    const first = await createRun(server, { project: 'first', framework: 'vitest' });
    const second = await createRun(server, { project: 'second', framework: 'jest' });
    await post(server, `/api/v1/runs/${first}/results`, {
      results: [
        result({ duration: 5 }),
        result({ status: 'skipped', duration: 0 }),
        result({ status: 'todo' }),
      ],
    });

    const listed = await get(server, '/api/v1/runs');

    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: second,
        counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
        total: 0,
        totalDuration: 0,
      }),
      expect.objectContaining({
        id: first,
        counts: { passed: 1, failed: 0, skipped: 1, todo: 1 },
        total: 3,
        totalDuration: 17,
      }),
    ]);
  });

  it('keeps results in arrival order across requests', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    for (const testCase of ['one', 'two', 'three']) {
      await post(server, `/api/v1/runs/${runId}/results`, { results: [result({ testCase })] });
    }
    const read = await get(server, `/api/v1/runs/${runId}/results`);
    expect((read.body as { testCase: string }[]).map((r) => r.testCase)).toEqual(['one', 'two', 'three']);
  });

  it('answers 404 run_not_found for results or reads of an unknown run', async () => {
    const server = await startServer();
    const submitted = await post(server, '/api/v1/runs/no-such-run/results', { results: [result()] });
    const read = await get(server, '/api/v1/runs/no-such-run');
    const readResults = await get(server, '/api/v1/runs/no-such-run/results');

    for (const answer of [submitted, read, readResults]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 'run_not_found' } });
    }
    expect(await server.store.allResults()).toEqual([]);
  });

  it('answers 404 not_found in the error shape for a path it does not serve', async () => {
    const server = await startServer();
    const answer = await get(server, '/api/v2/runs');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: { code: 'not_found', message: 'no route for GET /api/v2/runs' } });
  });
});
