import type { Writable } from 'node:stream';
import pg from 'pg';
import { DatabaseError, redactDatabaseUrl, scrubError, secretsOf } from './database-url.js';
import type { SqlDatabase, SqlRow, SqlTransaction, SqlValue } from './sql-database.js';

/**
 * A team's PostgreSQL behind the SqlDatabase seam (`--database postgres://…`), over `pg`'s
 * pool. Loaded only through `openPostgres` (open-database.ts), so `pg` stays unloaded otherwise.
 */

/** Column types answered as JavaScript numbers: the ones that always fit in a double. */
const NUMBER_TYPES = new Set([
  21, // int2
  23, // int4
  26, // oid
  700, // float4
  701, // float8
]);
const BOOL_TYPE = 16;
const BYTEA_TYPE = 17;

/** Distinct statement texts prepared by name on each connection; any more run unnamed. */
const MAX_NAMED = 200;

/**
 * SqlValue's rule, the same as SQLite's: numbers that fit a double come back as numbers,
 * booleans as 1 and 0 (SQLite has no boolean), and everything else as PostgreSQL's text:
 * int8 and numeric (`count(*)`, `sum(…)`, a bigserial id) because they may pass 2^53,
 * timestamps because the schema's times are ISO text, json because it is read as text.
 */
const sqlValueTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) => {
    if (NUMBER_TYPES.has(oid)) return Number;
    if (oid === BOOL_TYPE) return (text: string) => (text === 't' ? 1 : 0);
    // An attachment's bytes (`\x` and hex, PostgreSQL's text form of bytea), as SQLite answers a BLOB.
    if (oid === BYTEA_TYPE) return (text: string) => Buffer.from(text.slice(2), 'hex');
    return (text: string) => text;
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export interface PostgresOptions {
  /** Connections in the pool. Default: 10. */
  maxConnections?: number;
}

/** Opens the pool and checks, with one round trip, that the server answers and lets us in. */
export async function openPostgresDatabase(url: string, options: PostgresOptions = {}): Promise<SqlDatabase> {
  const shown = redactDatabaseUrl(url);
  const secrets = secretsOf(url);
  try {
    new URL(url);
  } catch {
    // `new URL`'s own error carries the whole URL, password included, in its `input`.
    throw new DatabaseError(
      'database_url_invalid',
      `--database ${shown} is not a valid URL: write it as postgres://user:password@host:5432/database (percent-encode special characters in the password)`,
    );
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    types: sqlValueTypes,
    application_name: 'testrun',
    connectionTimeoutMillis: 10_000,
    // Each connection writes a query without waiting for the answer to the one before (pg 8.23):
    // a transaction's BEGIN and first statement go out together (PostgresDatabase.transaction).
    pipeline: true,
  } as pg.PoolConfig);
  // An idle connection the server dropped (a restart, a kill) is an 'error' event; unheard, it
  // would end the process. The pool discards that connection; the next query opens another.
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    const reason = scrubError(error instanceof Error ? error : new Error(String(error)), secrets).message;
    throw new DatabaseError(
      'database_unreachable',
      `cannot open PostgreSQL at ${shown}: ${reason}. Check that the server is running and the URL's host, port, user, password and database.`,
    );
  }
  return new PostgresDatabase(pool, secrets);
}

class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres';
  readonly #pool: pg.Pool;
  readonly #secrets: readonly string[];
  /** Work under way, which close() waits for. */
  readonly #pending = new Set<Promise<unknown>>();
  /** Prepared statements' names by their text, the same on every connection of the pool. */
  readonly #statementNames = new Map<string, string>();
  #closed: Promise<void> | undefined;

  constructor(pool: pg.Pool, secrets: readonly string[]) {
    this.#pool = pool;
    this.#secrets = secrets;
  }

  query<Row extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return this.#track(async () => (await this.#pool.query<Row>(sql, [...params])).rows);
  }

  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    return this.#track(async () => {
      const client = await this.#pool.connect();
      let open = true;
      /** BEGIN's answer, once BEGIN has gone out with the transaction's first statement. */
      let begun: Promise<unknown> | undefined;
      /** The COMMIT sent with the last statement (queryLast), once there is one. */
      let committed: Promise<void> | undefined;
      // The pool's connections pipeline (pg's `pipeline`): queries are written without waiting
      // for the answers before them and run in the order written. BEGIN goes out with the
      // transaction's first statement, and COMMIT behind its last (queryLast), each pair in one
      // socket write (together), so the backend wakes once for the pair instead of once each.
      // A BEGIN that failed (a dropped connection) fails the statements behind it.
      const send = <Row extends SqlRow>(sql: string, params: readonly SqlValue[]) => {
        // A query after the end would run outside the transaction, on a connection another owns.
        if (!open) throw new Error('this transaction has ended: run its queries inside the work function');
        return together(client, () => {
          if (!begun) {
            begun = client.query('BEGIN');
            begun.catch(() => {});
          }
          return client.query<Row>(this.#prepared(sql, params));
        });
      };
      const tx: SqlTransaction = {
        query: async <Row extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []) =>
          (await send<Row>(sql, params)).rows,
        queryLast: async <Row extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []) => {
          const answer = together(client, () => {
            const rows = send<Row>(sql, params);
            // Right behind the statement. After a failed statement PostgreSQL answers this
            // COMMIT by rolling back (its command tag says ROLLBACK): nothing is kept.
            committed = client.query('COMMIT').then((result) => {
              if (result.command !== 'COMMIT') throw new Error('the transaction was rolled back');
            });
            committed.catch(() => {});
            return rows;
          });
          open = false;
          const { rows } = await answer;
          await committed;
          return rows;
        },
      };
      try {
        const result = await work(tx);
        open = false;
        if (begun) {
          await begun;
          // With synchronous_commit on (PostgreSQL's default), COMMIT answers once the WAL is flushed.
          await (committed ?? client.query('COMMIT'));
        }
        client.release();
        return result;
      } catch (error) {
        open = false;
        try {
          // After a COMMIT sent with the last statement there is no transaction left: PostgreSQL
          // answers this with a warning, not an error.
          if (begun) await client.query('ROLLBACK');
          client.release();
        } catch (rollbackError) {
          // A connection that cannot roll back is not handed to the next transaction.
          client.release(rollbackError instanceof Error ? rollbackError : true);
        }
        throw error;
      }
    });
  }

  /**
   * A write's statement as a named prepared statement, parsed and planned once per connection
   * instead of on every request: ingest runs the same handful over and over, and naming them took
   * 15–30 % off the cluster's CPU a result (docs/design/server-storage.md#prepared-statements).
   * Only statements with parameters inside transactions — writes and the key lookups they make: the
   * pages' reads stay unnamed, so PostgreSQL plans them for their values every time, never with a
   * generic plan. At most MAX_NAMED texts get a name, so the backends' memory stays bounded.
   */
  #prepared(sql: string, params: readonly SqlValue[]): pg.QueryConfig {
    if (params.length === 0) return { text: sql };
    let name = this.#statementNames.get(sql);
    if (name === undefined && this.#statementNames.size < MAX_NAMED) {
      name = `testrun_${this.#statementNames.size + 1}`;
      this.#statementNames.set(sql, name);
    }
    return name === undefined ? { text: sql, values: [...params] } : { name, text: sql, values: [...params] };
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      await Promise.allSettled(this.#pending);
      await this.#pool.end();
    })();
    return this.#closed;
  }

  /** Runs one piece of work, counted until it settles; its error loses the URL's password. */
  #track<T>(run: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('the PostgreSQL database is closed'));
    const promise = run().catch((error: unknown) => {
      throw scrubError(error, this.#secrets);
    });
    this.#pending.add(promise);
    const forget = () => this.#pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }
}

/**
 * Runs `write` with the connection's socket corked, so that the queries it sends leave in one
 * write: the backend reads them in one wake-up, where each write had woken it (on this VM a wake-up
 * costs context switches on both sides;
 * docs/design/server-storage.md#one-statement-one-round-trip). pg corks each query's own messages
 * the same way; its socket is not public API, so without it the queries go as they are.
 */
function together<T>(client: pg.PoolClient, write: () => T): T {
  const stream = (
    client as unknown as { connection?: { stream?: Partial<Pick<Writable, 'cork' | 'uncork'>> } }
  ).connection?.stream;
  stream?.cork?.();
  try {
    return write();
  } finally {
    stream?.uncork?.();
  }
}
