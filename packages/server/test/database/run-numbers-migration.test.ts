import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/database/migrations.js';
import { openDatabase } from '../../src/database/open-database.js';
import { SqlStore } from '../../src/ledger/sql-store.js';

// Migration 4 hands PostgreSQL's run numbers out from a sequence instead of the `counters`
// row (which stayed locked until each create-run's COMMIT). A database that already holds
// runs must go on from its counter: integer run ids are numbers, and one handed out twice
// would name two runs.

const CREATED_AT = '2026-06-01T00:00:00.000Z';
const ENGINES = storeEngines();

describe.each(ENGINES)('run numbers across migration 4 ($name)', (engine) => {
  it('go on from the runs created before it, without a number handed out twice', async () => {
    const opened = await openDatabase(await engine.target());
    onTestFinished(() => opened.close());
    const { db } = opened;
    await migrate(
      db,
      MIGRATIONS.filter((migration) => migration.version < 4),
    );
    // Two runs as the code before it stored them: numbered 1 and 2 by the counter.
    for (const seq of [1, 2]) {
      await db.query(
        `INSERT INTO runs (seq, id, project, framework, tags, created_at, last_received_at, total, total_duration)
         VALUES ($1, $2, 'shop', 'vitest', '[]', $3, $3, 0, 0)`,
        [seq, `before-${seq}`, CREATED_AT],
      );
    }
    await db.query("UPDATE counters SET value = 2 WHERE name = 'run'");

    expect(await migrate(db)).toContain(4);
    const store = new SqlStore(db, ['passed', 'failed']);
    const create = () =>
      store.write((tx) =>
        tx.createRun(
          { project: 'shop', framework: 'vitest', tags: ['nightly'], createdAt: CREATED_AT },
          'integer',
          () => 'unused',
        ),
      );
    const first = await create();
    const second = await create();

    // Integer ids are 2^53 + seq: the next numbers are 3 and 4.
    const firstId = 9_007_199_254_740_993n;
    expect([BigInt(first.id) - firstId + 1n, BigInt(second.id) - firstId + 1n]).toEqual([3n, 4n]);
    expect((await store.runs()).map((run) => run.id)).toEqual(['before-1', 'before-2', first.id, second.id]);
  });
});
