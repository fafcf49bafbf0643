import type { SqlDatabase } from '../database/sql-database.js';
import { PageReads } from './page-reads.js';
import {
  changesOf,
  type Quarantine,
  type QuarantineChange,
  quarantineOf,
  quarantinesOf,
  quarantiningProjects,
  runQuarantineList,
} from './quarantines.js';
import {
  endOfRow,
  RESULT_COLUMNS,
  type ResultRow,
  RUN_COLUMNS,
  type RunRow,
  runRow,
  storedResult,
  storedRun,
} from './rows.js';
import type {
  IdempotencyScope,
  IdempotentResponse,
  RunEnd,
  Store,
  StoredResult,
  StoredRun,
} from './store.js';
import { StoreWriter } from './store-writer.js';

// The names the API's modules import the store's parts by, from where each lives now.
export type { ResultsFilter, RunsFilter } from './filters.js';
export type { Page } from './page-reads.js';
export type { IdempotencyScope, IdempotentResponse } from './store.js';
export type { StoreWriter } from './store-writer.js';

/**
 * The server's state in a database (SQLite or PostgreSQL, through SqlDatabase): runs, their
 * results in arrival order, per-run counts kept on every write, how runs ended, and the saved
 * answers to idempotent writes. Writes go through `write`, one transaction each, answered
 * only once committed; reads page, so nothing grows in memory with what is stored.
 *
 * By job: the reads the pages and the read API run are page-reads.ts (this class's base), the
 * WHERE their filters become filters.ts; the writes are store-writer.ts, their SQL text by
 * engine write-sql.ts; rows and what they become, rows.ts. Here: the whole lists of the Store
 * interface, idempotency and retention.
 */
export class SqlStore extends PageReads implements Store {
  constructor(db: SqlDatabase, statuses: readonly string[]) {
    super(db, statuses);
  }

  /** Runs `work` in one transaction; resolves once it is committed and durable. */
  write<T>(work: (tx: StoreWriter) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new StoreWriter(tx, this.db.dialect)));
  }

  // The Store interface: whole lists, for tests and small tools.

  async runs(): Promise<StoredRun[]> {
    const rows = await this.db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs ORDER BY seq`);
    return rows.map(storedRun);
  }

  async run(id: string): Promise<StoredRun | undefined> {
    const row = await runRow(this.db, id);
    return row ? storedRun(row) : undefined;
  }

  async results(runId: string): Promise<StoredResult[]> {
    const rows = await this.db.query<ResultRow>(
      `SELECT ${RESULT_COLUMNS} FROM results WHERE run_seq = (SELECT seq FROM runs WHERE id = $1) ORDER BY position`,
      [runId],
    );
    return rows.map((row) => storedResult(runId, row));
  }

  async allResults(): Promise<StoredResult[]> {
    const rows = await this.db.query<ResultRow & { run_id: string }>(
      `SELECT runs.id AS run_id, ${RESULT_COLUMNS} FROM results JOIN runs ON runs.seq = results.run_seq ORDER BY results.run_seq, position`,
    );
    return rows.map((row) => storedResult(row.run_id, row));
  }

  async endOf(runId: string): Promise<RunEnd | undefined> {
    const row = await runRow(this.db, runId);
    return row ? endOfRow(row) : undefined;
  }

  /** How many runs are stored (`testrun serve`'s banner). */
  async runCount(): Promise<number> {
    const rows = await this.db.query<{ n: number | string }>('SELECT count(*) AS n FROM runs');
    return Number(rows[0]?.n ?? 0);
  }

  // Quarantine (quarantines.ts): `now` decides what has expired.

  /** The project's quarantines in force, active or expired, oldest first. */
  quarantines(project: string, now = new Date().toISOString()): Promise<Quarantine[]> {
    return quarantinesOf(this.db, project, now);
  }

  /** One test's quarantine in its project, in any state. */
  quarantineOf(
    project: string,
    testSuite: string,
    testCase: string,
    now = new Date().toISOString(),
  ): Promise<Quarantine | undefined> {
    return quarantineOf(this.db, project, testSuite, testCase, now);
  }

  /** A project's quarantine changes, newest first (of one test with `key`). */
  quarantineChanges(
    project: string,
    paging: { key?: string | undefined; limit: number; offset?: number },
  ): Promise<{ changes: QuarantineChange[]; more: boolean }> {
    return changesOf(this.db, project, paging);
  }

  /** Projects with tests in force (at most 200), and how many each holds. */
  quarantiningProjects(): Promise<{ project: string; count: number }[]> {
    return quarantiningProjects(this.db, 200);
  }

  /** What a run's reporters match their failures with: its project's tests in force, by key. */
  quarantineList(project: string, now = new Date().toISOString()) {
    return runQuarantineList(this.db, project, now);
  }

  // Idempotency and retention.

  async savedResponse(scope: IdempotencyScope): Promise<IdempotentResponse | undefined> {
    const rows = await this.db.query<{ fingerprint: string; status: number; headers: string; body: string }>(
      'SELECT fingerprint, status, headers, body FROM idempotent_responses WHERE method = $1 AND path = $2 AND key = $3',
      [scope.method, scope.path, scope.key],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      ...scope,
      fingerprint: row.fingerprint,
      response: { status: Number(row.status), headers: JSON.parse(row.headers), body: JSON.parse(row.body) },
    };
  }

  /** The oldest runs created before `before`, at most `limit`: what retention removes next. */
  async runsCreatedBefore(before: string, limit: number): Promise<{ seq: number; total: number }[]> {
    const rows = await this.db.query<{ seq: number | string; total: number | string }>(
      'SELECT seq, total FROM runs WHERE created_at < $1 ORDER BY created_at, seq LIMIT $2',
      [before, limit],
    );
    return rows.map((row) => ({ seq: Number(row.seq), total: Number(row.total) }));
  }
}
