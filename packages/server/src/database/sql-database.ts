/**
 * The one seam between the server's store and a database engine: the embedded SQLite (the default,
 * `sqlite.ts`) and a team's PostgreSQL (`postgres.ts`, `--database postgres://…`) run the same
 * schema, migrations and queries through it (docs/design/server-storage.md#one-seam-two-engines).
 *
 * Queries are written once, with PostgreSQL's placeholders (`$1`, `$2`, …); the SQLite
 * driver rewrites them to SQLite's numbered form (`?1`, `?2`, …). Values are strings,
 * numbers (JavaScript numbers; counts and ids that may pass 2^53 are kept as text),
 * bytes (an attached file's, in a BLOB or BYTEA column), null, and nothing else: JSON goes in
 * as text.
 */
export type SqlValue = string | number | Uint8Array | null;

export type SqlRow = Record<string, SqlValue>;

/** What runs statements: the database itself, or one transaction of it. */
export interface SqlExecutor {
  /** Runs one statement and answers its rows (none for a write without RETURNING). */
  query<Row extends SqlRow = SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
}

/** One transaction's statements, inside `SqlDatabase.transaction`. */
export interface SqlTransaction extends SqlExecutor {
  /**
   * Runs the transaction's last statement: nothing runs in it after this one. On PostgreSQL
   * the COMMIT goes out with it instead of a round trip later, so once this answers the
   * transaction is committed and the work must not fail after it. A statement that fails
   * rolls the whole transaction back on both engines, whatever the work does with its error.
   */
  queryLast<Row extends SqlRow = SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
}

export interface SqlDatabase extends SqlExecutor {
  /** Which engine: for the few statements the two cannot share (written beside each other). */
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Runs `work` in one transaction and resolves only once it is committed and durable:
   * the server answers a write only after this resolves. A throw rolls everything back.
   */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  /** Waits for work under way, then releases the engine (file handles, connections). */
  close(): Promise<void>;
}

/** Whether a statement failed on a UNIQUE or PRIMARY KEY constraint, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  // PostgreSQL's SQLSTATE 23505; SQLite's message (node-sqlite3-wasm's errors carry no code).
  return (
    (error as { code?: unknown } | null)?.code === '23505' ||
    /^UNIQUE constraint failed/.test(String((error as Error | null)?.message))
  );
}
