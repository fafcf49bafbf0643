import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDatabase, toSqlitePlaceholders } from '../../src/database/sqlite.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function fileDatabase(): Promise<{ path: string; db: SqliteDatabase }> {
  const folder = await mkdtemp(join(tmpdir(), 'testrun-sqlite-'));
  folders.push(folder);
  const path = join(folder, 'testrun.db');
  return { path, db: SqliteDatabase.open(path) };
}

describe('SqliteDatabase', () => {
  it('rewrites $n placeholders to SQLite numbered ones', () => {
    expect(toSqlitePlaceholders('SELECT $1, $2, $10 WHERE a = $1')).toBe('SELECT ?1, ?2, ?10 WHERE a = ?1');
  });

  it.each([['in memory'], ['in a file']])(
    'commits a transaction and rolls back a failed one (%s)',
    async (where) => {
      const db = where === 'in memory' ? SqliteDatabase.open(undefined) : (await fileDatabase()).db;
      await db.query('CREATE TABLE t (a INTEGER, b TEXT)');
      await db.transaction(async (tx) => {
        await tx.query('INSERT INTO t VALUES ($1, $2)', [1, 'one']);
        await tx.query('INSERT INTO t VALUES ($1, $2)', [2, 'two']);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO t VALUES ($1, $2)', [3, 'three']);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await db.query('SELECT a, b FROM t ORDER BY a')).toEqual([
        { a: 1, b: 'one' },
        { a: 2, b: 'two' },
      ]);
      await db.close();
    },
  );

  it('keeps transactions that run at once apart: neither sees the other half done', async () => {
    const db = SqliteDatabase.open(undefined);
    await db.query('CREATE TABLE t (a INTEGER)');
    const seen = await Promise.all(
      [1, 2, 3].map((n) =>
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO t VALUES ($1)', [n]);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return (await tx.query<{ n: number }>('SELECT count(*) AS n FROM t'))[0]?.n;
        }),
      ),
    );
    expect(seen).toEqual([1, 2, 3]);
    await db.close();
  });

  it('answers integers past 2^53 as text, digit for digit', async () => {
    const db = SqliteDatabase.open(undefined);
    expect(await db.query('SELECT 9007199254740993 AS big')).toEqual([{ big: '9007199254740993' }]);
    await db.close();
  });

  it('reads back what was committed after the file is reopened', async () => {
    const { path, db } = await fileDatabase();
    await db.query('CREATE TABLE t (a INTEGER)');
    await db.transaction((tx) => tx.query('INSERT INTO t VALUES ($1)', [7]));
    await db.close();
    const again = SqliteDatabase.open(path);
    expect(await again.query('SELECT a FROM t')).toEqual([{ a: 7 }]);
    await again.close();
  });
});
