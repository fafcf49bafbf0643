import { type FileHandle, open as openFile, statfs } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Database, Statement } from 'node-sqlite3-wasm';
import type { SqlDatabase, SqlRow, SqlTransaction, SqlValue } from './sql-database.js';

// node-sqlite3-wasm is CommonJS; loaded this way it works from the ESM build and from source.
const { Database: WasmDatabase } = keepingByteOrderMarks(
  () => createRequire(import.meta.url)('node-sqlite3-wasm') as typeof import('node-sqlite3-wasm'),
);

/**
 * Loads the engine with a TextDecoder that keeps a leading U+FEFF. Emscripten makes its one
 * decoder when the module loads (`new TextDecoder`), whose default drops a byte-order mark, and
 * reads every text column longer than 16 bytes through it: a name that began with U+FEFF came
 * back without it (found by test/api/storable-text.test.ts). A stored string is text, never a
 * file with a BOM, so the character is the name's own.
 */
function keepingByteOrderMarks<T>(load: () => T): T {
  const original = globalThis.TextDecoder;
  globalThis.TextDecoder = class extends original {
    constructor(label?: string, options?: ConstructorParameters<typeof TextDecoder>[1]) {
      super(label, { ...options, ignoreBOM: true });
    }
  };
  try {
    return load();
  } finally {
    globalThis.TextDecoder = original;
  }
}

/**
 * The embedded database: SQLite compiled to WebAssembly (node-sqlite3-wasm), its files written
 * through Node's `fs`, so nothing native is downloaded
 * (docs/design/server-storage.md#the-choice-sqlite-embedded-postgresql-for-a-team).
 *
 * Durability: a write-ahead log in `locking_mode=EXCLUSIVE`, where a commit is one append to
 * the `-wal` file and one fsync of it (a rollback journal takes three: journal, database,
 * journal truncate). WAL normally needs shared memory, which this VFS does not offer; in
 * exclusive locking mode SQLite keeps the WAL index in the process's own memory instead, and
 * exclusive is what the server wants anyway: one process owns a data folder (`data-folder.ts`).
 *
 * The commit's fsync is ours, not SQLite's: with `synchronous=FULL` the VFS fsyncs through
 * Node's `fsyncSync`, which holds the event loop for the whole flush (31 % of the server's
 * time under ingest). SQLite runs with `synchronous=NORMAL` instead — the same WAL, and the
 * WAL still synced before every checkpoint and the database after it — and a group commit
 * resolves only after an fdatasync of the WAL, started after its COMMIT, has completed on
 * libuv's thread pool. So nothing is answered before it is on disk, as with FULL, while the
 * event loop reads, parses and validates the requests of the next group during the flush.
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
  /** Transactions waiting for the next group commit. */
  #waiting: PendingTransaction[] = [];
  #groupScheduled = false;
  /** The `-wal` file, opened for the fdatasync that makes each group commit durable. */
  #wal: FileHandle | undefined;

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
        // NORMAL: SQLite no longer fsyncs the WAL at COMMIT; `#commitGroup` does, off the event loop.
        db.exec('PRAGMA synchronous=NORMAL');
        // A checkpoint (WAL into the database, two fsyncs, on the event loop) every 10,000
        // pages of WAL (~40 MB) instead of 1,000: the hot pages of results' indexes, written
        // again by every commit, are copied once per checkpoint (ingest: 37,000 → 45,000 results/s).
        db.exec('PRAGMA wal_autocheckpoint=10000');
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

  /**
   * Group commit: transactions that arrive while the engine is busy (or in the same turn of
   * the event loop) run one after another inside one BEGIN … COMMIT, each in a savepoint of
   * its own, and all resolve after that single COMMIT — one fsync for the group instead of
   * one each. A transaction that throws is rolled back to its savepoint alone; a COMMIT that
   * fails fails every transaction of the group, so nothing is answered before it is durable.
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('the database is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ work, resolve, reject } as PendingTransaction);
      if (this.#groupScheduled) return;
      this.#groupScheduled = true;
      // In the queue (so close() waits for it), after setImmediate: requests read in this
      // turn of the event loop join the same group.
      const turn = this.#queue
        .then(() => new Promise((next) => setImmediate(next)))
        .then(() => this.#commitGroup());
      this.#queue = turn.catch(() => {});
    });
  }

  async #commitGroup(): Promise<void> {
    const group = this.#waiting.splice(0);
    this.#groupScheduled = false;
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      const explained = await this.#explained(error);
      for (const item of group) item.reject(explained);
      return;
    }
    // Each transaction's outcome, in the group's order.
    const done: ({ value: unknown } | { error: unknown })[] = [];
    for (const item of group) {
      let open = true;
      const query = async <Row extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []) => {
        if (!open) throw new Error('a statement ran after its transaction ended');
        return this.#run<Row>(sql, params);
      };
      // The group's COMMIT comes after every transaction of it, so the last statement is run
      // as any other; one that fails rolls its transaction back, as on PostgreSQL.
      let lastFailed: { error: unknown } | undefined;
      const tx: SqlTransaction = {
        query,
        queryLast: async <Row extends SqlRow = SqlRow>(sql: string, params: readonly SqlValue[] = []) => {
          try {
            return await query<Row>(sql, params);
          } catch (error) {
            lastFailed = { error };
            throw error;
          } finally {
            open = false;
          }
        },
      };
      this.#db.exec('SAVEPOINT tx');
      try {
        const value = await item.work(tx);
        if (lastFailed) throw lastFailed.error;
        open = false;
        this.#db.exec('RELEASE tx');
        done.push({ value });
      } catch (error) {
        open = false;
        done.push({ error: await this.#explained(error) });
        if (!this.#db.inTransaction) break;
        try {
          this.#db.exec('ROLLBACK TO tx');
          this.#db.exec('RELEASE tx');
        } catch {
          break;
        }
      }
    }
    let failed: unknown;
    if (!this.#db.inTransaction || done.length < group.length) {
      // The engine ended the whole transaction (a failed write can): nothing of the group is kept.
      const last = done.at(-1);
      failed = last && 'error' in last ? last.error : new Error('the transaction was rolled back');
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
    } else {
      try {
        this.#db.exec('COMMIT');
      } catch (error) {
        failed = await this.#explained(error);
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      }
    }
    if (failed === undefined && this.path !== undefined) {
      // Answered once the WAL holding this COMMIT is on disk. The next group waits for the
      // flush too (it is still this turn of the queue), but the event loop does not: it reads,
      // parses and validates the requests that will make that group, which grows meanwhile.
      try {
        await this.#syncWal();
      } catch (error) {
        failed = await this.#explained(error);
      }
    }
    for (const [index, item] of group.entries()) {
      const outcome = done[index];
      if (outcome && 'error' in outcome) item.reject(outcome.error);
      else if (failed !== undefined) item.reject(failed);
      else item.resolve(outcome?.value);
    }
  }

  async #syncWal(): Promise<void> {
    // The WAL lives as long as the connection in exclusive mode (a checkpoint rewinds it, never
    // removes it), so one handle serves every flush; fsync is per file, whichever handle asks.
    if (!this.#wal) {
      try {
        this.#wal = await openFile(`${this.path}-wal`, 'r');
      } catch (error) {
        // No WAL yet: nothing was written through one, so nothing waits to be flushed.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
    }
    await this.#wal.datasync();
  }

  #explained(error: unknown): Promise<unknown> {
    return explainedWriteError(this.path, error);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.catch(() => {});
    await this.#wal?.close().catch(() => {});
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
    const statement = this.#statement(sql);
    let rows: Record<string, unknown>[];
    try {
      rows = statement.all(params as SqlValue[]) as Record<string, unknown>[];
    } catch (error) {
      // A statement whose step failed (a constraint) refuses to be reset for its next use:
      // prepare it afresh next time.
      this.#statements.delete(sql);
      try {
        statement.finalize();
      } catch {
        // Finalizing answers the step's error again; the statement is freed all the same.
      }
      throw error;
    }
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

interface PendingTransaction {
  work: (tx: SqlTransaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Less free space than this after a failed write: the disk is full (a write needs a few pages). */
const FULL_BELOW_BYTES = 1024 * 1024;

/**
 * The WebAssembly VFS answers a failed write of any kind as SQLite's "disk I/O error", a full
 * disk included (when opening the file, and at a commit); the space left where the file lives
 * tells which it was: then an ENOSPC error naming the file.
 */
export async function explainedWriteError(path: string | undefined, error: unknown): Promise<unknown> {
  if (path === undefined || !/disk I\/O error/.test(String((error as Error)?.message))) return error;
  try {
    const { bavail, bsize } = await statfs(dirname(path));
    if (bavail * bsize >= FULL_BELOW_BYTES) return error;
  } catch {
    return error;
  }
  return Object.assign(new Error(`${path}: no space left on device`, { cause: error }), { code: 'ENOSPC' });
}

/**
 * `$1` → `?1`: PostgreSQL's placeholders in SQLite's numbered form, which binds the same
 * array. The server's statements never hold a `$` inside a string literal, so no parsing.
 */
export function toSqlitePlaceholders(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}
