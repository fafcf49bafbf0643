import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { migrate } from '../../src/database/migrations.js';
import { openDatabase } from '../../src/database/open-database.js';
import { SqlStore } from '../../src/ledger/sql-store.js';
import type { ResultInput, StoredRun } from '../../src/ledger/store.js';

// The flaky page's query (ledger/page-reads.ts, lastRunsWithResults with onlyTestsThatFailed):
// a project's last runs, and of their results only those of the tests that failed in one of
// them or passed there after more than one attempt, the only tests either of the page's lists
// can hold (docs/design/flaky.md#bounded-by-the-window-not-by-what-is-stored). The rule that
// reads them is pages/flaky-or-failing.ts, tested on plain data in test/pages/.

async function openStore(engine: (typeof ENGINES)[number]): Promise<SqlStore> {
  const opened = await openDatabase(await engine.target());
  onTestFinished(() => opened.close());
  await migrate(opened.db);
  return new SqlStore(opened.db, ['passed', 'failed', 'skipped']);
}

async function runWith(
  store: SqlStore,
  id: string,
  createdAt: string,
  results: readonly ResultInput[],
  project = 'shop',
): Promise<StoredRun> {
  return store.write(async (tx) => {
    const run = await tx.createRun({ project, framework: 'vitest', tags: [], createdAt }, 'uuid', () => id);
    await tx.addResults(run.id, results, createdAt);
    return run;
  });
}

const passed = (testCase: string, attempts?: number): ResultInput => ({
  testSuite: 'a.test.ts',
  testCase,
  status: 'passed',
  duration: 1,
  ...(attempts ? { details: { attempts } } : {}),
});
const failed = (testCase: string): ResultInput => ({
  testSuite: 'a.test.ts',
  testCase,
  status: 'failed',
  duration: 1,
  details: { message: 'x' },
});

const ENGINES = storeEngines();

describe.each(ENGINES)('the flaky rule’s query on $name', (engine) => {
  it('feeds the rule the tests that failed or passed on a retry only', async () => {
    const store = await openStore(engine);
    const run = await runWith(store, 'run-1', '2026-06-01T00:00:00.000Z', [
      passed('retried', 3),
      passed('at once'),
      failed('stable failure'),
      { ...passed('at once too'), testSuite: 'b.test.ts' },
    ]);
    const fed = await store.lastRunsWithResults(run.project, 1, { onlyTestsThatFailed: true });
    expect(fed.runs.map((stored) => stored.id)).toEqual(['run-1']);
    expect(fed.results.get(run.id)?.map((result) => result.testCase)).toEqual(['retried', 'stable failure']);
  });

  it('gives every result in the window of a test that failed in one run of it, oldest run first, and no other project’s', async () => {
    const store = await openStore(engine);
    await runWith(store, 'outside', '2026-06-01T00:00:00.000Z', [failed('flips')]);
    await runWith(store, 'first', '2026-06-02T00:00:00.000Z', [passed('flips'), passed('steady')]);
    await runWith(store, 'second', '2026-06-03T00:00:00.000Z', [failed('flips'), passed('steady')]);
    await runWith(store, 'elsewhere', '2026-06-04T00:00:00.000Z', [failed('steady')], 'other');

    const fed = await store.lastRunsWithResults('shop', 2, { onlyTestsThatFailed: true });
    expect(fed.runs.map((stored) => stored.id)).toEqual(['first', 'second']);
    expect(fed.results.get('first')?.map((result) => [result.testCase, result.status])).toEqual([
      ['flips', 'passed'],
    ]);
    expect(fed.results.get('second')?.map((result) => [result.testCase, result.status])).toEqual([
      ['flips', 'failed'],
    ]);
  });
});
