import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@testrun/server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KEY, post, result, startServer } from '../client.js';

// The ndjson data file older servers appended to (`dataFile`), written here line by line in
// that format, so the import is tested against the records as they were, not as we write now.

const RUN = {
  id: 'run-1',
  project: 'shop',
  framework: 'vitest',
  tags: ['ci'],
  createdAt: '2026-01-02T03:04:05.000Z',
};
const RECORDS = [
  { type: 'run', run: RUN },
  { type: 'results', runId: 'run-1', results: [result(), result({ status: 'failed', testCase: 'b' })] },
  {
    type: 'results',
    runId: 'run-1',
    results: [result({ testCase: 'c' })],
    receivedAt: '2026-01-02T03:05:00.000Z',
  },
  { type: 'end', runId: 'run-1', end: { status: 'failed', endedAt: '2026-01-02T03:06:00.000Z' } },
  {
    type: 'idempotency',
    key: 'batch-1',
    method: 'POST',
    path: '/api/v1/runs/run-1/results',
    fingerprint: 'f'.repeat(64),
    response: { status: 201, headers: {}, body: { accepted: 2 } },
  },
];

async function olderDataFile(lines: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'testrun-import-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'runs.ndjson');
  await writeFile(file, lines);
  return file;
}

const ndjson = (records: readonly object[]) =>
  records.map((record) => `${JSON.stringify(record)}\n`).join('');

describe("an older server's data file", () => {
  it('is imported on start: runs, results in order, counts, ends and idempotent answers', async () => {
    const dataFile = await olderDataFile(ndjson(RECORDS));
    const server = await startServer({ dataFile });

    expect(server.imported).toEqual({ imported: true, runs: 1, results: 3 });
    expect(await server.store.runs()).toEqual([RUN]);
    expect((await server.store.results('run-1')).map((r) => r.testCase)).toEqual([
      'cart > adds an item',
      'b',
      'c',
    ]);
    expect(await server.store.runWithCounts('run-1')).toMatchObject({
      total: 3,
      counts: { passed: 2, failed: 1 },
      lastReceivedAt: '2026-01-02T03:05:00.000Z',
      end: { status: 'failed', endedAt: '2026-01-02T03:06:00.000Z' },
    });
    expect(
      await server.store.savedResponse({
        key: 'batch-1',
        method: 'POST',
        path: '/api/v1/runs/run-1/results',
      }),
    ).toMatchObject({ fingerprint: 'f'.repeat(64), response: { status: 201, body: { accepted: 2 } } });
  });

  it('is imported once: a restart keeps what came after and adds nothing twice, and the file is left as it was', async () => {
    const text = ndjson(RECORDS);
    const dataFile = await olderDataFile(text);
    const first = await createServer({ apiKeys: [KEY], dataFile });
    await post(first, '/api/v1/runs/run-1/results', { results: [result({ testCase: 'd' })] });
    await first.close();

    const second = await startServer({ dataFile });
    expect(second.imported).toEqual({ imported: false, runs: 0, results: 0 });
    expect((await second.store.results('run-1')).map((r) => r.testCase)).toEqual([
      'cart > adds an item',
      'b',
      'c',
      'd',
    ]);
    expect(await readFile(dataFile, 'utf8')).toBe(text);
  });

  it('leaves out a torn last line, which the older server never acknowledged', async () => {
    const dataFile = await olderDataFile(ndjson(RECORDS.slice(0, 2)));
    await appendFile(dataFile, '{"type":"results","runId":"');
    const server = await startServer({ dataFile });
    expect(await server.store.results('run-1')).toHaveLength(2);
  });

  it('refuses a corrupt record before the last line, naming its line, and imports none of the file', async () => {
    const dataFile = await olderDataFile(
      `${ndjson(RECORDS.slice(0, 1))}not json\n${ndjson(RECORDS.slice(1))}`,
    );
    await expect(createServer({ dataFile })).rejects.toThrow(`${dataFile}:2: not a testrun data record`);

    await writeFile(dataFile, ndjson([RECORDS[0]!, { type: 'results', runId: 'nope', results: [result()] }]));
    await expect(createServer({ dataFile })).rejects.toThrow(`${dataFile}:2: results for unknown run nope`);
    // Nothing of the refused file was kept: fixed, it imports whole.
    await writeFile(dataFile, ndjson(RECORDS));
    const server = await startServer({ dataFile });
    expect(await server.store.results('run-1')).toHaveLength(3);
  });
});
