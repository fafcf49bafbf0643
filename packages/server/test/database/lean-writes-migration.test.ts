import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/database/migrations.js';
import { openDatabase } from '../../src/database/open-database.js';
import type { SqlDatabase } from '../../src/database/sql-database.js';
import { SqlStore } from '../../src/ledger/sql-store.js';

// Migration 7 takes work off PostgreSQL's writes: the foreign keys of run_tags and run_counts
// (results' went in migration 6) and results_by_duration, which a run's slowest tests were
// read through. SQLite keeps all of them. What was stored before reads the same after.

const CREATED_AT = '2026-06-01T00:00:00.000Z';
const STATUSES = ['passed', 'failed', 'skipped'];

async function runWithResults(store: SqlStore): Promise<string> {
  const run = await store.write((tx) =>
    tx.createRun(
      { project: 'shop', framework: 'vitest', tags: ['branch:main', 'nightly'], createdAt: CREATED_AT },
      'uuid',
      () => 'run-before-7',
    ),
  );
  const results = Array.from({ length: 40 }, (_, index) => ({
    testSuite: `src/file-${index % 4}.test.ts`,
    testCase: `case ${index}`,
    status: index % 10 === 0 ? 'skipped' : index % 7 === 0 ? 'failed' : 'passed',
    // Ties on purpose: the slowest come by duration, then by arrival.
    duration: (index * 37) % 11,
  }));
  await store.write((tx) => tx.addResults(run.id, results, CREATED_AT));
  return run.id;
}

async function foreignKeysOf(db: SqlDatabase, table: string): Promise<number> {
  if (db.dialect === 'postgres') {
    const rows = await db.query(
      `SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid = $1::regclass`,
      [table],
    );
    return rows.length;
  }
  return (await db.query(`SELECT * FROM pragma_foreign_key_list('${table}')`)).length;
}

async function indexesOf(db: SqlDatabase, table: string): Promise<string[]> {
  const rows =
    db.dialect === 'postgres'
      ? await db.query<{ name: string }>('SELECT indexname AS name FROM pg_indexes WHERE tablename = $1', [
          table,
        ])
      : await db.query<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = $1",
          [table],
        );
  return rows.map((row) => row.name);
}

describe.each(storeEngines())('migration 7 ($name)', (engine) => {
  it('leaves what was stored reading the same: counts, tags and the slowest tests in the same order', async () => {
    const opened = await openDatabase(await engine.target());
    onTestFinished(() => opened.close());
    const { db } = opened;
    // Every migration but 7, so that today's store writes and reads as it does (later ones add columns).
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version !== 7),
    );
    const store = new SqlStore(db, STATUSES);
    const runId = await runWithResults(store);
    const read = async () => ({
      run: await store.run(runId),
      slowest: (await store.slowestResults(runId, {}, ['skipped'], 10)).map((result) => result.testCase),
      slowestFailed: (await store.slowestResults(runId, { status: 'failed' }, ['skipped'], 3)).map(
        (result) => result.testCase,
      ),
    });
    const before = await read();

    expect(await migrate(db)).toEqual([7]);

    expect(await read()).toEqual(before);
    expect(before.slowest).toHaveLength(10);
    expect(before.slowestFailed.length).toBeGreaterThan(0);
  });

  it(
    engine.name === 'postgres'
      ? 'drops the foreign keys of results, run tags and counts and results_by_duration'
      : 'keeps the foreign keys of results, run tags and counts and results_by_duration',
    async () => {
      const opened = await openDatabase(await engine.target());
      onTestFinished(() => opened.close());
      const { db } = opened;
      await migrate(db);
      const keys = [
        await foreignKeysOf(db, 'results'),
        await foreignKeysOf(db, 'run_tags'),
        await foreignKeysOf(db, 'run_counts'),
      ];
      const indexes = await indexesOf(db, 'results');
      if (db.dialect === 'postgres') {
        expect(keys).toEqual([0, 0, 0]);
        expect(indexes).not.toContain('results_by_duration');
      } else {
        expect(keys).toEqual([1, 1, 1]);
        expect(indexes).toContain('results_by_duration');
      }
      // Both keep the indexes the pages read through.
      expect(indexes).toEqual(
        expect.arrayContaining(['results_by_run_and_test', 'results_failed_or_retried']),
      );
    },
  );
});
