import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { migrate } from '../../src/database/migrations.js';
import { openDatabase } from '../../src/database/open-database.js';
import type { SqlDatabase } from '../../src/database/sql-database.js';
import { FAILED_OR_RETRIED, namedTest, type RunsFilter } from '../../src/ledger/filters.js';
import { SqlStore } from '../../src/ledger/sql-store.js';

// The pages' queries are written for plans that stay small at 100,000 runs
// (docs/design/server-storage.md#page-queries-bounded-by-the-runs-they-show): choices skipped
// through an index, recent tags read as a range, a tag's count from run_tags, old pages read from
// the oldest end. These check they answer what the plain queries answered, on both engines, at the
// edges those rewrites have.

const STATES = { now: Date.parse('2026-06-02T00:00:00.000Z'), abandonedAfterMs: 3_600_000 };

async function storeOn(engine: ReturnType<typeof storeEngines>[number]): Promise<{
  db: SqlDatabase;
  store: SqlStore;
}> {
  const opened = await openDatabase(await engine.target());
  onTestFinished(() => opened.close());
  await migrate(opened.db);
  return { db: opened.db, store: new SqlStore(opened.db, ['passed', 'failed', 'skipped']) };
}

/** Run i: project p-(i % 3), framework by i % 2, tags: every run `branch:main`, every 4th `nightly`, run 5 also `branch:release/1`. */
async function addRuns(store: SqlStore, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const tags = ['branch:main'];
    if (i % 4 === 0) tags.push('nightly');
    if (i === 5) tags.push('branch:release/1');
    const run = await store.write((tx) =>
      tx.createRun(
        {
          project: `p-${i % 3}`,
          framework: i % 2 === 0 ? 'jest' : 'vitest',
          tags,
          createdAt: '2026-06-01T00:00:00.000Z',
        },
        'uuid',
        () => `run-${String(i).padStart(3, '0')}`,
      ),
    );
    ids.push(run.id);
  }
  return ids;
}

describe.each(storeEngines())('the pages’ queries on $name', (engine) => {
  it('answer no choices, tags or runs on an empty database', async () => {
    const { store } = await storeOn(engine);
    expect(await store.choices('project', 200)).toEqual([]);
    expect(await store.choices('tag', 200)).toEqual([]);
    expect(await store.recentTags(200, 500)).toEqual([]);
    expect(await store.recentBranches(200, 500)).toEqual([]);
    expect(await store.anyRuns()).toBe(false);
    expect(await store.countRuns({ tag: 'nightly' }, STATES)).toBe(0);
    expect(await store.runsByOffset({}, { limit: 50, offset: 0, matching: 0 }, STATES)).toEqual([]);
  });

  it('list each distinct project, framework and tag once, sorted, up to the limit', async () => {
    const { store } = await storeOn(engine);
    await addRuns(store, 12);
    expect(await store.choices('project', 200)).toEqual(['p-0', 'p-1', 'p-2']);
    expect(await store.choices('project', 2)).toEqual(['p-0', 'p-1']);
    expect(await store.choices('framework', 200)).toEqual(['jest', 'vitest']);
    expect(await store.choices('tag', 200)).toEqual(['branch:main', 'branch:release/1', 'nightly']);
    expect(await store.anyRuns()).toBe(true);
  });

  it('take the recent tags and branches from exactly the newest runs asked for', async () => {
    const { store } = await storeOn(engine);
    await addRuns(store, 12);
    // Runs 6–11: nightly on 8 only; release/1 is on run 5, one run too old.
    expect(await store.recentTags(200, 6)).toEqual(['branch:main', 'nightly']);
    expect(await store.recentBranches(200, 6)).toEqual(['main']);
    // Runs 5–11 hold it; more runs asked for than exist reads them all.
    expect(await store.recentBranches(200, 7)).toEqual(['main', 'release/1']);
    expect(await store.recentTags(200, 500)).toEqual(['branch:main', 'branch:release/1', 'nightly']);
    expect(await store.recentTags(1, 500)).toEqual(['branch:main']);
  });

  it('count runs by a tag or a branch alone as by any other filter, a run with two matching branches once', async () => {
    const { store } = await storeOn(engine);
    await addRuns(store, 12);
    const count = (filter: RunsFilter) => store.countRuns(filter, STATES);
    expect(await count({ tag: 'nightly' })).toBe(3);
    expect(await count({ tag: 'nightly', project: 'p-0' })).toBe(1);
    expect(await count({ branch: 'release/*' })).toBe(1);
    expect(await count({ branch: '*' })).toBe(12);
    expect(await count({ branch: 'main' })).toBe(12);
    expect(await count({ tag: 'none' })).toBe(0);
  });

  it('read every page the same from either end: newest first, the last page short', async () => {
    const { store } = await storeOn(engine);
    const ids = (await addRuns(store, 12)).reverse();
    for (const filter of [{}, { tag: 'branch:main' }, { project: 'p-1' }] as RunsFilter[]) {
      const matching = await store.countRuns(filter, STATES);
      const expected = (await store.runsByOffset(filter, { limit: 1000, offset: 0 }, STATES)).map(
        (run) => run.id,
      );
      for (let offset = 0; offset < matching + 5; offset += 5) {
        const page = await store.runsByOffset(filter, { limit: 5, offset, matching }, STATES);
        expect(page.map((run) => run.id)).toEqual(expected.slice(offset, offset + 5));
      }
    }
    expect(
      (await store.runsByOffset({}, { limit: 5, offset: 10, matching: 12 }, STATES)).map((run) => run.id),
    ).toEqual(ids.slice(10));
  });

  it.runIf(engine.name === 'sqlite')(
    'read the tests that failed or were retried from results_failed_or_retried (its condition is the query’s, word for word)',
    async () => {
      const { db } = await storeOn(engine);
      const plan = await db.query<{ detail: string }>(
        `EXPLAIN QUERY PLAN SELECT test_suite, test_case FROM results WHERE run_seq IN (1, 2) AND ${FAILED_OR_RETRIED}`,
      );
      expect(plan.map((row) => row.detail).join('\n')).toContain('results_failed_or_retried');
    },
  );

  // Migration 8: the index holds the names' first characters, so that a name of any length
  // can be stored; the query must still be one it answers.
  it.runIf(engine.name === 'postgres')(
    "read one test's results in runs through results_by_run_and_test, however long its name",
    async () => {
      const { db } = await storeOn(engine);
      const plan = await db.transaction(async (tx) => {
        // An empty table is read whole otherwise: the question is whether the index can serve.
        await tx.query('SET LOCAL enable_seqscan = off');
        return tx.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT position FROM results WHERE run_seq IN (1, 2) AND ${namedTest('$1', '$2')}`,
          ['src/cart.test.ts', 'x'.repeat(100_000)],
        );
      });
      const lines = plan.map((row) => row['QUERY PLAN']);
      expect(lines[0]).toContain('Index Scan using results_by_run_and_test');
      // The names' prefixes narrow the scan, not only the run.
      expect(lines.find((line) => line.includes('Index Cond'))).toContain('substr(test_case, 1, 200) =');
    },
  );
});
