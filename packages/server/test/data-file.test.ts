import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@testrun/server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createRun, get, KEY, post, result, startServer } from './client.js';

async function tempDataFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'testrun-server-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'nested', 'data.ndjson');
}

describe('data file', () => {
  it('reads runs, results and idempotency records back after a restart', async () => {
    const dataFile = await tempDataFile();
    const before = await createServer({ apiKeys: [KEY], dataFile });
    const runId = await createRun(before);
    const body = { results: [result(), result({ status: 'failed' })] };
    const headers = { 'idempotency-key': 'batch-1' };
    const first = await post(before, `/api/v1/runs/${runId}/results`, body, { headers });
    await before.close();

    const after = await startServer({ dataFile });
    const retry = await post(after, `/api/v1/runs/${runId}/results`, body, { headers });
    const reused = await post(after, `/api/v1/runs/${runId}/results`, { results: [result()] }, { headers });
    const listed = await get(after, '/api/v1/runs');

    expect(after.store.runs().map((run) => run.id)).toEqual([runId]);
    expect(after.store.results(runId)).toHaveLength(2);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(reused.status).toBe(422);
    expect(listed.body).toEqual([
      expect.objectContaining({ id: runId, counts: expect.objectContaining({ failed: 1 }) }),
    ]);
  });

  it('appends one JSON record per line for each accepted write', async () => {
    const dataFile = await tempDataFile();
    const server = await startServer({ dataFile });
    const runId = await createRun(server);
    await post(
      server,
      `/api/v1/runs/${runId}/results`,
      { results: [result()] },
      {
        headers: { 'idempotency-key': 'k1' },
      },
    );
    await post(server, `/api/v1/runs/${runId}/results`, { results: [] });

    const lines = (await readFile(dataFile, 'utf8')).trimEnd().split('\n');

    expect(lines.map((line) => JSON.parse(line).type)).toEqual(['run', 'results', 'idempotency']);
  });

  it('drops a torn last line left by a crash and keeps appending after it', async () => {
    const dataFile = await tempDataFile();
    const first = await createServer({ apiKeys: [KEY], dataFile });
    const runId = await createRun(first);
    await first.close();
    await appendFile(dataFile, '{"type":"results","runId":"');

    const second = await createServer({ apiKeys: [KEY], dataFile });
    await post(second, `/api/v1/runs/${runId}/results`, { results: [result()] });
    await second.close();
    const third = await startServer({ dataFile });

    expect(third.store.results(runId)).toHaveLength(1);
  });

  it('refuses to start on a corrupt record before the last line', async () => {
    const dataFile = await tempDataFile();
    await startServer({ dataFile });
    await writeFile(dataFile, 'not json\n{"type":"run","run":{"id":"r"}}\n');

    await expect(createServer({ dataFile })).rejects.toThrow(`${dataFile}:1: not a testrun data record`);
  });

  it('has every acknowledged write on disk once close() resolves', async () => {
    const dataFile = await tempDataFile();
    const server = await createServer({ apiKeys: [KEY], dataFile });
    const runId = await createRun(server);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(server, `/api/v1/runs/${runId}/results`, { results: [result({ testCase: `case ${i}` })] }),
      ),
    );
    await server.close();

    const restarted = await startServer({ dataFile });
    expect(restarted.store.results(runId)).toHaveLength(20);
  });
});
