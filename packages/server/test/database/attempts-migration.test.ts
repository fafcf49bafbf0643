import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/database/migrations.js';
import { openDatabase } from '../../src/database/open-database.js';
import type { SqlDatabase } from '../../src/database/sql-database.js';
import { SqlStore } from '../../src/ledger/sql-store.js';
import type { ResultInput, StoredRun } from '../../src/ledger/store.js';

// Migration 2 keeps a result's `details.attempts` in a column of its own, so the flaky page's query
// (test/ledger/flaky-query.test.ts) can pick the tests that passed on a retry
// (docs/design/flaky.md#passed-on-a-retry-within-one-run) without parsing JSON in SQL. A database
// made before it gets the column filled once, at start: each engine its own statement, so both run
// here (PostgreSQL where it is installed).

const CREATED_AT = '2026-06-01T00:00:00.000Z';

async function storeAt(
  engine: (typeof ENGINES)[number],
  migrations = MIGRATIONS,
): Promise<{ db: SqlDatabase; store: SqlStore }> {
  const opened = await openDatabase(await engine.target());
  onTestFinished(() => opened.close());
  const { db } = opened;
  await migrate(db, migrations);
  return { db, store: new SqlStore(db, ['passed', 'failed', 'skipped']) };
}

async function runWith(store: SqlStore, results: readonly ResultInput[]): Promise<StoredRun> {
  return store.write(async (tx) => {
    const run = await tx.createRun(
      { project: 'shop', framework: 'vitest', tags: [], createdAt: CREATED_AT },
      'uuid',
      () => 'run-1',
    );
    await tx.addResults(run.id, results, CREATED_AT);
    return run;
  });
}

const ENGINES = storeEngines();

const RESULTS: ResultInput[] = [
  { testSuite: 'a.test.ts', testCase: 'retried', status: 'passed', duration: 1, details: { attempts: 3 } },
  { testSuite: 'a.test.ts', testCase: 'at once', status: 'passed', duration: 1 },
  {
    testSuite: 'a.test.ts',
    testCase: 'stable failure',
    status: 'failed',
    duration: 1,
    details: { message: 'x' },
  },
  { testSuite: 'b.test.ts', testCase: 'at once too', status: 'passed', duration: 1 },
];

describe.each(ENGINES)('results.attempts on $name', (engine) => {
  it('is written with each result: the attempts a passed result needed, null otherwise', async () => {
    const { db, store } = await storeAt(engine);
    await runWith(store, RESULTS);
    const rows = await db.query<{ test_case: string; attempts: number | null }>(
      'SELECT test_case, attempts FROM results ORDER BY position',
    );
    expect(rows.map((row) => [row.test_case, row.attempts === null ? null : Number(row.attempts)])).toEqual([
      ['retried', 3],
      ['at once', null],
      ['stable failure', null],
      ['at once too', null],
    ]);
  });

  it('is filled once from the details of results stored before the migration', async () => {
    const { db } = await storeAt(
      engine,
      MIGRATIONS.filter((migration) => migration.version === 1),
    );
    // Written as a server before the column wrote it.
    await db.query(
      `INSERT INTO runs (seq, id, project, framework, tags, created_at, last_received_at, total, total_duration)
       VALUES (1, 'old', 'shop', 'vitest', '[]', $1, $1, 2, 2)`,
      [CREATED_AT],
    );
    await db.query(
      `INSERT INTO results (run_seq, position, test_suite, test_case, status, duration, details) VALUES
       (1, 0, 'a.test.ts', 'retried', 'passed', 1, '{"attempts":2}'),
       (1, 1, 'a.test.ts', 'failed', 'failed', 1, '{"message":"no attempts here"}')`,
    );
    expect(
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 2),
      ),
    ).toEqual([2]);
    const rows = await db.query<{ test_case: string; attempts: number | null }>(
      'SELECT test_case, attempts FROM results ORDER BY position',
    );
    expect(rows.map((row) => [row.test_case, row.attempts === null ? null : Number(row.attempts)])).toEqual([
      ['retried', 2],
      ['failed', null],
    ]);
  });
});
