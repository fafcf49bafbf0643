import { statfs } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Database, Statement } from 'node-sqlite3-wasm';
import type { SqlDatabase, SqlExecutor, SqlRow, SqlValue } from './sql-database.js';

// node-sqlite3-wasm is CommonJS; loaded this way it works from the ESM build and from source.
const { Database: WasmDatabase } = createRequire(import.meta.url)(
  'node-sqlite3-wasm',
) as typeof import('node-sqlite3-wasm');

/**
 * The embedded database: SQLite compiled to WebAssembly (node-sqlite3-wasm), its files
 * written through Node's `fs`, so nothing native is downloaded (docs/design.md §21).
 *
 * Durability: `synchronous=FULL` with a write-ahead log in `locking_mode=EXCLUSIVE`. The
 * WAL makes a commit one append and one fsync of the `-wal` file (a rollback journal takes
 * three: journal, database, journal truncate; measured 0.33 ms against 1.4 ms a commit here).
 * WAL normally needs shared memory, which this VFS does not offer; in exclusive locking mode
 * SQLite keeps the WAL index in the process's own memory instead, and exclusive is what the
 * server wants anyway: one process owns a data folder (`data-folder.ts` makes sure).
 *
 * The engine is synchronous and has one connection, so every statement and transaction runs
 * in turn through one queue: a transaction's statements never interleave with another's.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  readonly #db: Database;
  readonly #statements = new Map<string, Statement>();
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  private constructor(
    db: Database,
    private readonly path: string | undefined,
  ) {
    this.#db = db;
  }

  /** Opens (creating) the database file at `path`, or an in-memory database without one. */
  static open(path: string | undefined): SqliteDatabase {
    const db = new WasmDatabase(path ?? ':memory:');
    try {
      if (path !== undefined) {
        db.exec('PRAGMA locking_mode=EXCLUSIVE');
        const mode = db.get('PRAGMA journal_mode=WAL') as { journal_mode?: string } | null;
        if (mode?.journal_mode !== 'wal') throw new Error(`${path}: SQLite refused journal_mode=WAL`);
        db.exec('PRAGMA synchronous=FULL');
      }
      db.exec('PRAGMA foreign_keys=ON');
      return new SqliteDatabase(db, path);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  query<Row extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return this.#inTurn(() => this.#run<Row>(sql, params));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#inTurn(async () => {
      let open = true;
      const tx: SqlExecutor = {
        query: async <Row extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []) => {
          if (!open) throw new Error('a statement ran after its transaction ended');
          return this.#run<Row>(sql, params);
        },
      };
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const value = await work(tx);
        open = false;
        this.#db.exec('COMMIT');
        return value;
      } catch (error) {
        open = false;
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw await this.#explained(error);
      }
    });
  }

  /**
   * The WebAssembly VFS answers a failed write of any kind as SQLite's "disk I/O error",
   * a full disk included; the space left where the file lives tells which it was.
   */
  async #explained(error: unknown): Promise<unknown> {
    if (this.path === undefined || !/disk I\/O error/.test(String((error as Error)?.message))) return error;
    try {
      const { bavail, bsize } = await statfs(dirname(this.path));
      if (bavail * bsize >= FULL_BELOW_BYTES) return error;
    } catch {
      return error;
    }
    return Object.assign(new Error(`${this.path}: no space left on device`, { cause: error }), {
      code: 'ENOSPC',
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.catch(() => {});
    for (const statement of this.#statements.values()) statement.finalize();
    this.#statements.clear();
    this.#db.close();
  }

  #inTurn<T>(work: () => Promise<T> | T): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('the database is closed'));
    const turn = this.#queue.then(work);
    this.#queue = turn.catch(() => {});
    return turn;
  }

  #run<Row extends SqlRow>(sql: string, params: readonly SqlValue[]): Row[] {
    const rows = this.#statement(sql).all(params as SqlValue[]) as Record<string, unknown>[];
    // Integers past 2^53 come back as BigInt; the seam promises text for those.
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === 'bigint') row[column] = value.toString();
      }
    }
    return rows as Row[];
  }

  /** Prepared once per distinct statement: the server runs a handful of them over and over. */
  #statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(toSqlitePlaceholders(sql));
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** Less free space than this after a failed write: the disk is full (a write needs a few pages). */
const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * `$1` → `?1`: PostgreSQL's placeholders in SQLite's numbered form, which binds the same
 * array. The server's statements never hold a `$` inside a string literal, so no parsing.
 */
export function toSqlitePlaceholders(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}
