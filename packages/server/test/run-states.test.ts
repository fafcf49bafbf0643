import fs from 'node:fs';
import path from 'node:path';
import { storeEngines, tempDir } from '@testrun/test-utils';
import { describe, expect, it } from 'vitest';
import { createRun, get, patch, post, result, serverOn } from './client.js';

// How a run ended: PATCH /api/v1/runs/{id} as `completeRun: true` sends it, answered as
// strictly as the spec's two operations, and the state every page and the read API show.

describe.each(storeEngines())('PATCH /api/v1/runs/{id} on $name', (engine) => {
  const startServer = serverOn(engine);
  it('completes a run: 200 with the run and its state, which the read API shows from then on', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const answer = await patch(server, `/api/v1/runs/${runId}`, { status: 'failed' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: runId, state: 'failed', end: { status: 'failed' } });
    expect((await get(server, `/api/v1/runs/${runId}`)).body).toMatchObject({ state: 'failed' });
    expect((await get(server, '/api/v1/runs')).body).toMatchObject([{ id: runId, state: 'failed' }]);
  });

  it('answers the same status again as it did, and another one with 409', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const first = await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' });
    const again = await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' });
    const other = await patch(server, `/api/v1/runs/${runId}`, { status: 'interrupted' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      error: {
        code: 'run_already_completed',
        message: expect.stringMatching(
          /was already completed as completed at .*; it cannot become interrupted$/,
        ),
      },
    });
    expect((await get(server, `/api/v1/runs/${runId}`)).body).toMatchObject({ state: 'completed' });
  });

  it('answers 404 for a run it does not have', async () => {
    const server = await startServer();
    const answer = await patch(server, '/api/v1/runs/nope', { status: 'completed' });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: 'run_not_found' } });
  });

  it.each([
    [{}, 'status is required'],
    [{ status: 'done' }, 'status must be one of: completed, failed, interrupted'],
    [{ status: 'completed', at: 1 }, 'at is not an allowed field'],
    [{ status: 1 }, 'status must be string'],
  ])('answers 400 for the body %j', async (body, message) => {
    const server = await startServer();
    const runId = await createRun(server);
    const answer = await patch(server, `/api/v1/runs/${runId}`, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { code: 'invalid_request', message } });
    expect((await get(server, `/api/v1/runs/${runId}`)).body).toMatchObject({ state: 'running' });
  });

  it('asks for the key and for JSON, as every write does', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const withoutKey = await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' }, { key: null });
    const asText = await patch(
      server,
      `/api/v1/runs/${runId}`,
      { status: 'completed' },
      { headers: { 'content-type': 'text/plain' } },
    );
    expect([withoutKey.status, asText.status]).toEqual([401, 415]);
    expect((await get(server, `/api/v1/runs/${runId}`)).body).toMatchObject({ state: 'running' });
  });

  it('replays its answer to a retry with the same Idempotency-Key', async () => {
    const server = await startServer();
    const runId = await createRun(server);
    const headers = { 'idempotency-key': 'end-1' };
    const first = await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' }, { headers });
    const retry = await patch(server, `/api/v1/runs/${runId}`, { status: 'completed' }, { headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('keeps the end in the data file: a restarted server knows it', async () => {
    const dataFile = path.join(tempDir('testrun-states-'), 'data.ndjson');
    const server = await startServer({ dataFile });
    const runId = await createRun(server);
    await patch(server, `/api/v1/runs/${runId}`, { status: 'interrupted' });
    await server.close();
    const restarted = await startServer({ dataFile });
    expect((await get(restarted, `/api/v1/runs/${runId}`)).body).toMatchObject({
      state: 'interrupted',
      end: { status: 'interrupted' },
    });
  });
});

describe.each(storeEngines())('run states on the pages on $name', (engine) => {
  const startServer = serverOn(engine);
  /** A data file of three runs created two hours ago: one completed, one still receiving results, one silent since. */
  function oldRuns(): { dataFile: string; ids: { completed: string; running: string; abandoned: string } } {
    const createdAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const ids = { completed: 'run-completed', running: 'run-running', abandoned: 'run-abandoned' };
    const run = (id: string) => ({
      type: 'run',
      run: { id, project: 'shop', framework: 'jest', tags: [], createdAt },
    });
    const records = [
      run(ids.completed),
      run(ids.running),
      run(ids.abandoned),
      { type: 'end', runId: ids.completed, end: { status: 'completed', endedAt: createdAt } },
      { type: 'results', runId: ids.running, results: [result()], receivedAt: new Date().toISOString() },
      // Written before runs had states: no receivedAt, so the run's creation is its last sign of life.
      { type: 'results', runId: ids.abandoned, results: [result()] },
    ];
    const dataFile = path.join(tempDir('testrun-states-'), 'data.ndjson');
    fs.writeFileSync(dataFile, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    return { dataFile, ids };
  }

  it('shows on the runs list which run is running, completed and abandoned (nothing for an hour)', async () => {
    const { dataFile, ids } = oldRuns();
    const server = await startServer({ dataFile });
    const list = (await get(server, '/', { key: null })).text;
    const states = Object.fromEntries(
      [...list.matchAll(/data-run-id="([^"]+)" data-state="([^"]+)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(states).toEqual({
      [ids.completed]: 'completed',
      [ids.running]: 'running',
      [ids.abandoned]: 'abandoned',
    });
    // Said in words, not by colour alone.
    expect(list).toContain(
      '<span class="state state-abandoned" tabindex="0">abandoned<span class="tip" role="tooltip">Abandoned: never completed',
    );
  });

  it('takes the time after which a run is abandoned from abandonedAfterMs', async () => {
    const { dataFile, ids } = oldRuns();
    const server = await startServer({ dataFile, abandonedAfterMs: 3 * 3_600_000 });
    expect((await get(server, `/api/v1/runs/${ids.abandoned}`)).body).toMatchObject({ state: 'running' });
  });

  it("says on a run's page how it ended, or why it counts as abandoned", async () => {
    const { dataFile, ids } = oldRuns();
    const server = await startServer({ dataFile });
    const abandoned = (await get(server, `/runs/${ids.abandoned}`, { key: null })).text;
    expect(abandoned).toMatch(
      /<p class="muted" id="run-state">Never completed, and nothing received for 1 h 0 min: abandoned\. Last results received <time/,
    );
    const completed = (await get(server, `/runs/${ids.completed}`, { key: null })).text;
    expect(completed).toMatch(/<p class="muted" id="run-state">Ended completed <time/);
    const fresh = await createRun(server);
    await post(server, `/api/v1/runs/${fresh}/results`, { results: [result({ status: 'failed' })] });
    await patch(server, `/api/v1/runs/${fresh}`, { status: 'failed' });
    expect((await get(server, `/runs/${fresh}`, { key: null })).text).toContain(
      '<span class="state state-failed" tabindex="0">failed<span class="tip" role="tooltip">Failed: the run ended, and a test (or the runner itself) failed.</span></span>',
    );
  });
});
