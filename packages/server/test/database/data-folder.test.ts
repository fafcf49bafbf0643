import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type TestrunServer } from '@testrun/server';
import { mountSmallDisk } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATIONS } from '../../src/database/migrations.js';
import { createRun, get, KEY, post, result, startServer } from '../client.js';

async function tempFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'testrun-server-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'nested', 'data');
}

describe('data folder', () => {
  it('reads runs, results, run ends and idempotent answers back after a restart', async () => {
    const data = await tempFolder();
    const before = await createServer({ apiKeys: [KEY], data });
    const runId = await createRun(before);
    const body = { results: [result(), result({ status: 'failed' })] };
    const headers = { 'idempotency-key': 'batch-1' };
    const first = await post(before, `/api/v1/runs/${runId}/results`, body, { headers });
    await before.close();

    const after = await startServer({ data });
    const retry = await post(after, `/api/v1/runs/${runId}/results`, body, { headers });
    const reused = await post(after, `/api/v1/runs/${runId}/results`, { results: [result()] }, { headers });
    const listed = await get(after, '/api/v1/runs');

    expect((await after.store.runs()).map((run) => run.id)).toEqual([runId]);
    expect(await after.store.results(runId)).toHaveLength(2);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(reused.status).toBe(422);
    expect(listed.body).toEqual([
      expect.objectContaining({ id: runId, counts: expect.objectContaining({ failed: 1 }) }),
    ]);
  });

  it('keeps the database in one file of the folder, with its write-ahead log', async () => {
    const data = await tempFolder();
    const server = await createServer({ apiKeys: [KEY], data });
    await createRun(server);
    expect(await readdir(data)).toEqual(
      expect.arrayContaining(['server.pid', 'testrun.db', 'testrun.db-wal']),
    );
    await server.close();
    expect(await readdir(data)).not.toContain('server.pid');
  });

  it('has every acknowledged write in the database once close() resolves', async () => {
    const data = await tempFolder();
    const server = await createServer({ apiKeys: [KEY], data });
    const runId = await createRun(server);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(server, `/api/v1/runs/${runId}/results`, { results: [result({ testCase: `case ${i}` })] }),
      ),
    );
    await server.close();

    const restarted = await startServer({ data });
    expect(await restarted.store.results(runId)).toHaveLength(20);
  });

  it('refuses a second server on a folder a running one uses, saying what to do', async () => {
    const data = await tempFolder();
    await startServer({ data });
    await expect(createServer({ data })).rejects.toMatchObject({
      code: 'data_folder_in_use',
      message: expect.stringContaining('give this one another --data folder'),
    });
  });

  it('takes over a folder whose server was killed: its claim and the engine lock it left behind', async () => {
    const data = await tempFolder();
    const first = await createServer({ apiKeys: [KEY], data });
    const runId = await createRun(first);
    await first.close();
    // What kill -9 leaves: the claim of a process that is gone, and SQLite's lock directory.
    await writeFile(join(data, 'server.pid'), '2147483646\n');
    await mkdir(join(data, 'testrun.db.lock'));

    const second = await startServer({ data });
    expect((await second.store.runs()).map((run) => run.id)).toEqual([runId]);
  });

  it.each([
    ['a new folder', false],
    ['a folder whose server was killed', true],
  ])(
    'starts one of several servers started at once on %s, and refuses the others as in use',
    async (_case, killed) => {
      const data = await tempFolder();
      if (killed) {
        await (await createServer({ apiKeys: [KEY], data })).close();
        await writeFile(join(data, 'server.pid'), '2147483646\n');
        await mkdir(join(data, 'testrun.db.lock'));
      }
      const started = await Promise.allSettled(
        Array.from({ length: 6 }, () => createServer({ apiKeys: [KEY], data })),
      );
      const servers = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      onTestFinished(async () => {
        await Promise.all(servers.map((server) => server.close()));
      });
      expect(servers).toHaveLength(1);
      for (const outcome of started) {
        if (outcome.status === 'rejected')
          expect(outcome.reason).toMatchObject({ code: 'data_folder_in_use' });
      }
      await createRun(servers[0]!);
    },
  );

  it('refuses to start on a full disk, saying so, and starts with every migration once space is freed', async (context) => {
    // Room for the claim and the first pages, not for the first migration's commit.
    const { mountPoint, grow } = mountSmallDisk(context, '16k');
    const data = join(mountPoint, 'data');
    await expect(createServer({ apiKeys: [KEY], data })).rejects.toMatchObject({
      code: 'storage_full',
      message: `${data}: no space left to open and migrate the database: free space there, then start the server again (nothing half done was kept)`,
    });
    grow('64m');
    const server = await startServer({ data });
    const newest = Math.max(...MIGRATIONS.map((migration) => migration.version));
    expect(await server.store.db.query('SELECT max(version) AS version FROM schema_migrations')).toEqual([
      { version: newest },
    ]);
    await createRun(server);
  });

  it('numbers integer run ids from the database, so a restart never hands out one again', async () => {
    // The id as written, digit for digit: JSON.parse would round it.
    const idOf = async (server: TestrunServer) =>
      /"id":(\d+)/.exec(
        (await post(server, '/api/v1/runs', { project: 'shop', framework: 'vitest' })).text,
      )?.[1];
    const data = await tempFolder();
    const first = await createServer({ apiKeys: [KEY], data, runIds: 'integer' });
    const one = await idOf(first);
    await first.close();
    const second = await startServer({ data, runIds: 'integer' });
    expect([one, await idOf(second)]).toEqual(['9007199254740993', '9007199254740994']);
  });
});
