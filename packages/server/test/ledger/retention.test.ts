import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer } from '@testrun/server';
import { type StoreEngine, storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { migrate } from '../../src/database/migrations.js';
import { openDatabase } from '../../src/database/open-database.js';
import { Retention } from '../../src/ledger/retention.js';
import { SqlStore } from '../../src/ledger/sql-store.js';
import { createRun, KEY, result, startServer } from '../client.js';

const DAY = 24 * 60 * 60_000;
const NOW = Date.parse('2026-06-01T00:00:00.000Z');

async function storeWithRuns(
  engine: StoreEngine,
  ages: readonly { days: number; results: number }[],
): Promise<SqlStore> {
  const { db, close } = await openDatabase(await engine.target());
  onTestFinished(close);
  await migrate(db);
  const store = new SqlStore(db, ['passed', 'failed']);
  for (const [index, { days, results }] of ages.entries()) {
    const createdAt = new Date(NOW - days * DAY).toISOString();
    await store.write(async (tx) => {
      const run = await tx.createRun(
        { project: 'shop', framework: 'vitest', tags: ['ci'], createdAt },
        'uuid',
        () => `run-${index + 1}`,
      );
      const batch = Array.from({ length: results }, (_, i) => result({ testCase: `t${i}` }));
      await tx.addResults(run.id, batch, createdAt);
      await tx.saveResponse(
        {
          key: run.id,
          method: 'POST',
          path: '/api/v1/runs',
          fingerprint: 'f',
          response: { status: 201, headers: {}, body: {} },
        },
        createdAt,
      );
    });
  }
  return store;
}

async function count(store: SqlStore, table: string): Promise<number> {
  const rows = await store.db.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(rows[0]?.n);
}

describe.each(storeEngines())('retention (--keep-days) on $name', (engine) => {
  it('removes runs older than the limit with everything that hangs off them, and keeps the rest', async () => {
    const store = await storeWithRuns(engine, [
      { days: 40, results: 3 },
      { days: 31, results: 2 },
      { days: 29, results: 4 },
      { days: 1, results: 1 },
    ]);
    const removed = await Retention.paused(store, 30).runOnce(NOW);

    expect(removed).toBe(2);
    expect((await store.runs()).map((run) => run.id)).toEqual(['run-3', 'run-4']);
    expect(await count(store, 'results')).toBe(5);
    expect(await count(store, 'run_counts')).toBe(2);
    expect(await count(store, 'run_tags')).toBe(2);
    expect(await count(store, 'idempotent_responses')).toBe(2);
  });

  it('removes a large run in small transactions that writes get in between', async () => {
    const store = await storeWithRuns(engine, [{ days: 40, results: 9000 }]);
    const order: string[] = [];
    const removing = Retention.paused(store, 30)
      .runOnce(NOW)
      .then(() => order.push('retention done'));
    // A write that arrives while the old run is being removed is committed before it is gone.
    await new Promise((resolve) => setImmediate(resolve));
    await store.write((tx) => tx.tx.query('SELECT 1')).then(() => order.push('write committed'));
    await removing;

    // SQLite has one connection, so a write waits for whole transactions: it must get in
    // between the removal's small ones. PostgreSQL writes on another pooled connection and
    // never waits for retention (MVCC), so which finishes first there says nothing.
    if (engine.name === 'sqlite') expect(order).toEqual(['write committed', 'retention done']);
    expect(order).toHaveLength(2);
    expect(await count(store, 'results')).toBe(0);
  });
});

describe('retention in a server', () => {
  it('runs in the background of a server started with keepDays, on what its folder already holds', async () => {
    const data = join(await mkdtemp(join(tmpdir(), 'testrun-retention-')), 'data');
    onTestFinished(() => rm(dirname(data), { recursive: true, force: true }));
    const first = await createServer({ apiKeys: [KEY], data });
    const oldRun = await createRun(first);
    const newRun = await createRun(first);
    await first.store.db.query('UPDATE runs SET created_at = $1 WHERE id = $2', [
      new Date(Date.now() - 8 * DAY).toISOString(),
      oldRun,
    ]);
    await first.close();

    const second = await startServer({ data, keepDays: 7 });
    await vi.waitFor(async () => expect((await second.store.runs()).map((run) => run.id)).toEqual([newRun]));
  });
});
