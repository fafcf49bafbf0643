import { storeEngines } from '@testrun/test-utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../src/database/open-database.js';
import { isUniqueViolation, type SqlDatabase } from '../../src/database/sql-database.js';

// A transaction's last statement (queryLast): on PostgreSQL its COMMIT is written with it, so
// both engines must agree on what a failing last statement leaves — nothing of the transaction.

async function itemsTable(engine: (typeof ENGINES)[number]): Promise<SqlDatabase> {
  const { db, close } = await openDatabase(await engine.target());
  onTestFinished(() => close());
  await db.query('CREATE TABLE items (name TEXT PRIMARY KEY, size INTEGER NOT NULL DEFAULT 0)');
  return db;
}

const ENGINES = storeEngines();
const names = async (db: SqlDatabase) =>
  (await db.query<{ name: string }>('SELECT name FROM items ORDER BY name')).map((row) => row.name);

describe.each(ENGINES)('a transaction ending in queryLast ($name)', (engine) => {
  it('commits the last statement with the ones before it', async () => {
    const db = await itemsTable(engine);
    const answer = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['first']);
      return tx.queryLast<{ name: string }>('INSERT INTO items (name) VALUES ($1) RETURNING name', ['last']);
    });
    expect(answer).toEqual([{ name: 'last' }]);
    expect(await names(db)).toEqual(['first', 'last']);
  });

  it('keeps nothing when the last statement fails, even if the work swallows its error', async () => {
    const db = await itemsTable(engine);
    await db.query("INSERT INTO items (name) VALUES ('taken')");
    let caught: unknown;
    const outcome = db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['before']);
      try {
        await tx.queryLast('INSERT INTO items (name) VALUES ($1)', ['taken']);
      } catch (error) {
        caught = error;
      }
      return 'done';
    });
    await expect(outcome).rejects.toThrow();
    expect(isUniqueViolation(caught)).toBe(true);
    expect(await names(db)).toEqual(['taken']);
  });

  it('refuses a statement after the last one', async () => {
    const db = await itemsTable(engine);
    const outcome = db.transaction(async (tx) => {
      await tx.queryLast('INSERT INTO items (name) VALUES ($1)', ['last']);
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['after']);
    });
    await expect(outcome).rejects.toThrow(/ended/);
    expect(await names(db)).not.toContain('after');
  });

  it('tells a duplicate key from any other failure', async () => {
    const db = await itemsTable(engine);
    await db.query("INSERT INTO items (name) VALUES ('taken')");
    const failure = (sql: string) =>
      db.query(sql).then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isUniqueViolation(await failure("INSERT INTO items (name) VALUES ('taken')"))).toBe(true);
    expect(isUniqueViolation(await failure("INSERT INTO items (name, size) VALUES ('other', NULL)"))).toBe(
      false,
    );
    expect(isUniqueViolation(await failure('SELECT * FROM no_such_table'))).toBe(false);
  });
});
