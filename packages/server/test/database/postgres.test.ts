import { inspect } from 'node:util';
import { closedPortUrl, havePostgres, type PostgresServer, startPostgres } from '@testrun/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DatabaseError } from '../../src/database/database-url.js';
import { openPostgres } from '../../src/database/open-database.js';
import { openPostgresDatabase } from '../../src/database/postgres.js';
import type { SqlDatabase } from '../../src/database/sql-database.js';

// One real server for the file, a fresh database for each test.
let server: PostgresServer;
beforeAll(async () => {
  if (havePostgres()) server = await startPostgres();
});
afterAll(() => server?.stop());

describe.skipIf(!havePostgres())('the PostgreSQL SqlDatabase, against a real server', () => {
  let db: SqlDatabase;
  let url: string;
  beforeEach(async () => {
    url = await server.createDatabase();
    db = await openPostgres(url);
    await db.query('CREATE TABLE items (id bigserial PRIMARY KEY, name text NOT NULL, size integer)');
    return () => db.close();
  });

  it('says it is postgres and takes $n placeholders, with strings, numbers and null', async () => {
    expect(db.dialect).toBe('postgres');
    const inserted = await db.query(
      'INSERT INTO items (name, size) VALUES ($1, $2), ($3, $4) RETURNING name, size',
      ['first', 7, 'second', null],
    );
    expect(inserted).toEqual([
      { name: 'first', size: 7 },
      { name: 'second', size: null },
    ]);
    const rows = await db.query('SELECT name FROM items WHERE size = $1 OR name = $2 ORDER BY id', [
      7,
      'second',
    ]);
    expect(rows).toEqual([{ name: 'first' }, { name: 'second' }]);
  });

  it('answers numbers that fit a double as numbers, and bigint, numeric, timestamps and json as text', async () => {
    const [row] = await db.query(
      `SELECT 42::int4 AS int4, 7::int2 AS int2, 1.5::float8 AS float8,
              9007199254740993::int8 AS int8, count(*) AS count, 12.50::numeric AS numeric,
              true AS yes, false AS no, '2026-01-02T03:04:05.678Z'::timestamptz AS at,
              '{"a":[1,2]}'::jsonb AS json, NULL::text AS nothing
         FROM (VALUES (1), (2)) AS two(x)`,
    );
    expect(row).toEqual({
      int4: 42,
      int2: 7,
      float8: 1.5,
      int8: '9007199254740993',
      count: '2',
      numeric: '12.50',
      yes: 1,
      no: 0,
      at: expect.stringMatching(/^2026-01-02 03:04:05\.678/),
      json: '{"a": [1, 2]}',
      nothing: null,
    });
  });

  it('commits a transaction: its writes are there once it resolves, with what the work answered', async () => {
    const answer = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['a']);
      const [row] = await tx.query<{ id: string }>('INSERT INTO items (name) VALUES ($1) RETURNING id', [
        'b',
      ]);
      return row!.id;
    });
    expect(answer).toBe('2');
    expect(await db.query('SELECT name FROM items ORDER BY id')).toEqual([{ name: 'a' }, { name: 'b' }]);
  });

  it('keeps a transaction’s writes invisible to other connections until it commits', async () => {
    let seenInside: unknown;
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['pending']);
      seenInside = await db.query('SELECT count(*)::int AS n FROM items');
    });
    expect(seenInside).toEqual([{ n: 0 }]);
    expect(await db.query('SELECT count(*)::int AS n FROM items')).toEqual([{ n: 1 }]);
  });

  it('rolls everything back when the work throws, and rethrows that very error', async () => {
    const thrown = new Error('the work failed');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO items (name) VALUES ($1)', ['lost']);
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    expect(await db.query('SELECT * FROM items')).toEqual([]);
  });

  it('rolls back on a failed statement and hands a clean connection to the next transaction', async () => {
    const single = await openPostgresDatabase(url, { maxConnections: 1 });
    try {
      await expect(
        single.transaction(async (tx) => {
          await tx.query('INSERT INTO items (name) VALUES ($1)', ['lost']);
          await tx.query('INSERT INTO items (name) VALUES (NULL)');
        }),
      ).rejects.toMatchObject({ code: '23502' });
      // Same one connection: it would answer "current transaction is aborted" had it not rolled back.
      await single.transaction((tx) => tx.query('INSERT INTO items (name) VALUES ($1)', ['kept']));
      expect(await single.query('SELECT name FROM items')).toEqual([{ name: 'kept' }]);
    } finally {
      await single.close();
    }
  });

  it('leaves its connection outside any transaction when the work sends nothing, or throws before its first statement', async () => {
    // BEGIN goes out with the first statement: a work without one opens nothing to close.
    const single = await openPostgresDatabase(url, { maxConnections: 1 });
    try {
      expect(await single.transaction(async () => 'nothing sent')).toBe('nothing sent');
      const thrown = new Error('refused before writing');
      await expect(
        single.transaction(async () => {
          throw thrown;
        }),
      ).rejects.toBe(thrown);
      // Same one connection: SAVEPOINT outside a transaction block is an error (25P01).
      await expect(single.query('SAVEPOINT probe')).rejects.toMatchObject({ code: '25P01' });
      await single.transaction((tx) => tx.query('INSERT INTO items (name) VALUES ($1)', ['kept']));
      expect(await db.query('SELECT name FROM items')).toEqual([{ name: 'kept' }]);
    } finally {
      await single.close();
    }
  });

  it('refuses a query on a transaction that has ended', async () => {
    let leaked: Parameters<Parameters<SqlDatabase['transaction']>[0]>[0] | undefined;
    await db.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.query('SELECT 1')).rejects.toThrow(/transaction has ended/);
  });

  it('survives the server ending its idle connections (a restart, an admin): the next query opens another', async () => {
    await db.query('SELECT 1');
    const admin = await openPostgres(url);
    try {
      const [ended] = await admin.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'testrun' AND pid <> pg_backend_pid()`,
      );
      expect(ended!.n).toBeGreaterThan(0);
    } finally {
      await admin.close();
    }
    // An unheard 'error' from the pool would have ended this process; a query may still meet the
    // dead connection before the pool has noticed, so the proof is that one succeeds afterwards.
    await vi.waitFor(() => db.query('SELECT 1'), { timeout: 5_000, interval: 50 });
    expect(await db.query<{ n: number }>('SELECT 2::int AS n')).toEqual([{ n: 2 }]);
  });

  it('reaches a server on this machine through its Unix socket, the folder given as `host`', async () => {
    // The form a team uses for a PostgreSQL beside the server (bench/README.md, figure 10).
    const tcp = new URL(url);
    const socketUrl = `postgres://${tcp.username}:${tcp.password}@localhost:${tcp.port}${tcp.pathname}?host=${encodeURIComponent(server.directory)}`;
    const local = await openPostgres(socketUrl);
    try {
      // No server address: the connection did not go over TCP.
      expect(await local.query('SELECT inet_server_addr() AS address, current_database() AS name')).toEqual([
        { address: null, name: tcp.pathname.slice(1) },
      ]);
      expect(await db.query('SELECT inet_server_addr() AS address')).toEqual([{ address: '127.0.0.1' }]);
    } finally {
      await local.close();
    }
  });

  it('close() waits for a transaction under way to commit, then refuses new work', async () => {
    const other = await openPostgres(url);
    const slow = other.transaction(async (tx) => {
      await tx.query('SELECT pg_sleep(0.3)');
      await tx.query('INSERT INTO items (name) VALUES ($1)', ['slow']);
    });
    await other.close();
    await slow;
    expect(await db.query('SELECT name FROM items')).toEqual([{ name: 'slow' }]);
    await expect(other.query('SELECT 1')).rejects.toThrow(/closed/);
  });
});

describe.skipIf(!havePostgres())('a PostgreSQL URL’s password never shows', () => {
  /** Everything a log could print of an error. */
  function printed(error: unknown): string {
    return `${String(error)}\n${(error as Error).stack}\n${inspect(error, { depth: 5 })}\n${JSON.stringify(error)}`;
  }

  async function openingError(url: string): Promise<DatabaseError> {
    const error = await openPostgres(url).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DatabaseError);
    return error as DatabaseError;
  }

  it('refused: a wrong password is named as such, never printed', async () => {
    const secret = 'Wr0ng:p@ss/word';
    const url = server.url.replace(server.password, encodeURIComponent(secret));
    const error = await openingError(url);
    expect(error.code).toBe('database_unreachable');
    expect(error.message).toContain('password authentication failed for user "testrun"');
    expect(error.message).toContain('postgres://testrun:***@127.0.0.1:');
    expect(printed(error)).not.toContain(secret);
    expect(printed(error)).not.toContain(encodeURIComponent(secret));
  });

  it('unreachable: nothing listening on the port', async () => {
    const port = new URL(await closedPortUrl()).port;
    const error = await openingError(`postgres://testrun:s3cret-unreachable@127.0.0.1:${port}/postgres`);
    expect(error.code).toBe('database_unreachable');
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(printed(error)).not.toContain('s3cret-unreachable');
  });

  it('unparseable: the URL is refused as invalid, its password still hidden', async () => {
    const error = await openingError('postgres://testrun:s3cret-bad-url@127.0.0.1:notaport/postgres');
    expect(error.code).toBe('database_url_invalid');
    expect(error.message).toContain('postgres://testrun:***@');
    expect(printed(error)).not.toContain('s3cret-bad-url');
  });

  it('a failing query on an open database does not print the password either', async () => {
    const url = await server.createDatabase();
    const db = await openPostgres(url);
    try {
      // Never a number, whatever the random password is: PostgreSQL reads leading digits first,
      // and a password starting with ten of them (~1 run in 200) read "out of range" instead.
      const notANumber = `x${server.password}`;
      const error = await db.query(`SELECT $1::int`, [notANumber]).catch((thrown: unknown) => thrown);
      expect((error as Error).message).toMatch(/invalid input syntax for type integer/);
      expect(printed(error)).not.toContain(server.password);
    } finally {
      await db.close();
    }
  });
});
