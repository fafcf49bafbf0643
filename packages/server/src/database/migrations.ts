import type { SqlDatabase, SqlExecutor } from './sql-database.js';

/**
 * The schema, as the ordered list of changes that build it. Each is applied once, in one
 * transaction with its row in `schema_migrations`, so a server stopped half-way leaves the
 * database at the last whole migration, and the next start carries on from there. Both
 * engines run the same statements (types both understand: TEXT, BIGINT, DOUBLE PRECISION);
 * a statement the two cannot share is written as `{ sqlite, postgres }`, side by side, and
 * one that only one engine needs names that engine alone. Append new migrations; never edit
 * one that has shipped.
 */
export interface Migration {
  version: number;
  name: string;
  statements: readonly Statement[];
}

type Statement = string | { sqlite?: string; postgres?: string };

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, results, counts, idempotent responses, imports',
    statements: [
      // Numbers handed out by the database, so two servers on one PostgreSQL never hand out
      // the same: `run` orders runs (the keyset of every page) and numbers integer run ids.
      `CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL)`,
      `INSERT INTO counters (name, value) VALUES ('run', 0)`,
      // A run with what listing it needs, kept up to date on every write, so that listing
      // runs never reads results: the total, the summed duration, when results last came.
      `CREATE TABLE runs (
        seq BIGINT PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        project TEXT NOT NULL,
        framework TEXT NOT NULL,
        tags TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_received_at TEXT NOT NULL,
        end_status TEXT,
        ended_at TEXT,
        total BIGINT NOT NULL DEFAULT 0,
        total_duration DOUBLE PRECISION NOT NULL DEFAULT 0
      )`,
      `CREATE INDEX runs_by_project ON runs (project, seq)`,
      `CREATE INDEX runs_by_framework ON runs (framework, seq)`,
      `CREATE INDEX runs_by_created_at ON runs (created_at, seq)`,
      `CREATE TABLE run_tags (
        tag TEXT NOT NULL,
        run_seq BIGINT NOT NULL REFERENCES runs (seq),
        PRIMARY KEY (tag, run_seq)
      )`,
      `CREATE INDEX run_tags_by_run ON run_tags (run_seq)`,
      // Results by status, in the order each status first arrived (`first_position`).
      `CREATE TABLE run_counts (
        run_seq BIGINT NOT NULL REFERENCES runs (seq),
        status TEXT NOT NULL,
        count BIGINT NOT NULL,
        first_position BIGINT NOT NULL,
        PRIMARY KEY (run_seq, status)
      )`,
      // `position`: the order results arrived in within their run. `details`: JSON, opaque
      // here (the failure-details extension), null for the spec's four fields alone.
      `CREATE TABLE results (
        run_seq BIGINT NOT NULL REFERENCES runs (seq),
        position BIGINT NOT NULL,
        test_suite TEXT NOT NULL,
        test_case TEXT NOT NULL,
        status TEXT NOT NULL,
        duration DOUBLE PRECISION NOT NULL,
        details TEXT,
        PRIMARY KEY (run_seq, position)
      )`,
      `CREATE INDEX results_by_test ON results (test_suite, test_case, run_seq)`,
      // A run's slowest tests without sorting all its results (the run page asks every time).
      `CREATE INDEX results_by_duration ON results (run_seq, duration)`,
      // The first successful answer to an Idempotency-Key, committed with its write: the same
      // key on any server sharing this database replays it.
      `CREATE TABLE idempotent_responses (
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        headers TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (method, path, key)
      )`,
      `CREATE INDEX idempotent_responses_by_created_at ON idempotent_responses (created_at)`,
      // Data files of an older testrun (ndjson) already imported: each is imported once.
      `CREATE TABLE imports (
        path TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL,
        records BIGINT NOT NULL,
        imported_at TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    name: 'results.attempts: a test that passed on a retry',
    statements: [
      // `details.attempts` in a column of its own: the flaky rule reads the results that passed
      // after more than one attempt (docs/design/flaky.md#passed-on-a-retry-within-one-run) with
      // one plain condition that both engines run alike, instead of parsing JSON in SQL on every
      // page.
      `ALTER TABLE results ADD COLUMN attempts BIGINT`,
      // Results stored before this migration: parsed once, here, each engine its own way.
      {
        sqlite: `UPDATE results SET attempts = json_extract(details, '$.attempts') WHERE details LIKE '%"attempts"%'`,
        postgres: `UPDATE results SET attempts = (details::json ->> 'attempts')::bigint WHERE details LIKE '%"attempts"%'`,
      },
    ],
  },
  {
    version: 3,
    name: 'results_failed_or_retried: the flaky page reads only the tests that failed',
    statements: [
      // The flaky page asks, for each project's last runs, which tests failed (or passed on a
      // retry) there: ~1 % of their results. Without this index both engines read every result
      // of those runs to find them. Partial, so a passing result (nearly all) costs a write
      // nothing here; its condition is written exactly as the store's query writes it
      // (ledger/filters.ts, FAILED_OR_RETRIED), which is what lets either planner use it. It holds
      // every column that query reads: SQLite, without statistics, picks it over
      // results_by_duration only because it answers alone.
      `CREATE INDEX results_failed_or_retried ON results (run_seq, test_suite, test_case, status, attempts)
         WHERE (status = 'failed' OR attempts > 1)`,
    ],
  },
  {
    version: 4,
    name: 'run numbers from a sequence on PostgreSQL',
    statements: [
      // Taking a number from the `counters` row locked it until the create-run's COMMIT, so on
      // PostgreSQL every create-run waited for the one before to reach the disk (issue 30's
      // ingest figure). A sequence hands numbers out without a lock; it goes on from the
      // counter. SQLite, one writer, keeps the counter.
      { postgres: 'CREATE SEQUENCE run_numbers MINVALUE 0 START WITH 1' },
      { postgres: "SELECT setval('run_numbers', value, true) FROM counters WHERE name = 'run'" },
    ],
  },
  {
    version: 5,
    name: "results_by_run_and_test: a test's results found within runs, written where the run's are",
    statements: [
      // results_by_test led with the test's name, so a run's 100 results went to 100 places across
      // the index, and every commit wrote each of those pages again (SQLite: into the WAL, ~30 % of
      // the server's time in the write syscall; PostgreSQL: a full page image after each
      // checkpoint). Every query that reads a test's results names the runs first
      // (ledger/page-reads.ts, lastRunsWithResults), so the run leads now: a run's entries are
      // adjacent, appended like the table's own
      // (docs/design/server-storage.md#a-tests-results-by-run-then-test).
      `DROP INDEX results_by_test`,
      `CREATE INDEX results_by_run_and_test ON results (run_seq, test_suite, test_case)`,
    ],
  },
  {
    version: 6,
    name: 'results without a foreign key to runs on PostgreSQL',
    statements: [
      // PostgreSQL checks a foreign key with a trigger and a query per inserted row: 100 of
      // them for every batch of results, ~10-15 % of the cluster's CPU at ingest. A result is
      // only ever appended by the statement that moves its run's totals on (write-sql.ts,
      // ADD_RESULTS_POSTGRES), which finds no run for an unknown id and then inserts nothing,
      // and retention removes a run's results before the run. SQLite checks the same key
      // with a B-tree probe in the process and keeps it (it cannot drop one without copying
      // the table).
      { postgres: 'ALTER TABLE results DROP CONSTRAINT results_run_seq_fkey' },
    ],
  },
  {
    version: 7,
    name: "less work a write on PostgreSQL: no foreign keys on a run's tags and counts, no results_by_duration",
    statements: [
      // A write's fixed cost, measured on its own (a run of one result): ~1 ms of the cluster's
      // CPU a run, of which the foreign-key checks of run_tags and run_counts (a trigger and a
      // query a row, 3-4 rows a run) were 10-15 %. Both are written only by the statement that
      // has just created or found the run (CREATE_RUN_POSTGRES, ADD_RESULTS_POSTGRES in
      // ledger/write-sql.ts), and retention removes them before the run, as migration 6 argued for
      // results. SQLite keeps them (a B-tree probe in the process).
      { postgres: 'ALTER TABLE run_tags DROP CONSTRAINT run_tags_run_seq_fkey' },
      { postgres: 'ALTER TABLE run_counts DROP CONSTRAINT run_counts_run_seq_fkey' },
      // One of the three index entries every result cost (~6 % of the cluster's CPU at ingest).
      // It served a run's slowest tests; PostgreSQL finds them by reading the run's results
      // through the primary key and keeping the slowest few as it goes (a top-N sort: a run
      // of 100,000 results in tens of milliseconds). SQLite, whose sort runs in WebAssembly on
      // the event loop, keeps it.
      { postgres: 'DROP INDEX results_by_duration' },
    ],
  },
  {
    version: 8,
    name: "a test's name of any length on PostgreSQL: its indexes hold the name's first characters",
    statements: [
      // A PostgreSQL B-tree entry holds at most 2,704 bytes: a result whose two names took
      // more (two names of 1,024 CJK characters, which the reporters send; a 100 KB name from
      // another client) was answered 500 and its whole batch lost. The index that finds a
      // test's results in runs now holds the first 200 characters of each name (at most
      // 1,600 bytes), and the query says the same prefixes beside the names themselves
      // (sql-store.ts, #resultsOfSeqs); the flaky rule's partial index holds the run alone,
      // since the names it reads come from the rows anyway. SQLite keeps the whole names:
      // its index entries have no such bound.
      { postgres: 'DROP INDEX results_by_run_and_test' },
      {
        postgres:
          'CREATE INDEX results_by_run_and_test ON results (run_seq, substr(test_suite, 1, 200), substr(test_case, 1, 200))',
      },
      { postgres: 'DROP INDEX results_failed_or_retried' },
      {
        postgres: `CREATE INDEX results_failed_or_retried ON results (run_seq) WHERE (status = 'failed' OR attempts > 1)`,
      },
    ],
  },
  {
    version: 9,
    name: 'attachments: files results name, kept once by content hash, counted per run',
    statements: [
      // The files a result names (the `attachments` extension), as sent: JSON, like details.
      `ALTER TABLE results ADD COLUMN attachments TEXT`,
      // The bytes of the run's distinct files, against the limit for a run (one UPDATE checks and adds).
      `ALTER TABLE runs ADD COLUMN attachment_bytes BIGINT NOT NULL DEFAULT 0`,
      // Each file once, by the SHA-256 of its bytes, however many results, runs or shards name
      // it. `linked_at`: when a run last named it; retention removes a file no run names any
      // more, and only one nobody linked since its cutoff (an upload under way keeps it).
      `CREATE TABLE attachment_blobs (
        sha256 TEXT PRIMARY KEY,
        size BIGINT NOT NULL,
        stored_at TEXT NOT NULL,
        linked_at TEXT NOT NULL
      )`,
      // Which files a run has: what its reads may serve, and what goes with it.
      `CREATE TABLE run_attachments (
        run_seq BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        size BIGINT NOT NULL,
        received_at TEXT NOT NULL,
        PRIMARY KEY (run_seq, sha256)
      )`,
      `CREATE INDEX run_attachments_by_sha256 ON run_attachments (sha256)`,
      // The bytes themselves where the database keeps them (PostgreSQL, so every server behind
      // a balancer reads them; an in-memory server): 1 MiB a row. A data folder keeps files instead.
      {
        sqlite: `CREATE TABLE attachment_chunks (sha256 TEXT NOT NULL, chunk BIGINT NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (sha256, chunk))`,
        postgres: `CREATE TABLE attachment_chunks (sha256 TEXT NOT NULL, chunk BIGINT NOT NULL, bytes BYTEA NOT NULL, PRIMARY KEY (sha256, chunk))`,
      },
    ],
  },
  {
    version: 10,
    name: "shard plans, and the shard a run's results came from",
    statements: [
      // A plan per (project, plan key, shard count): the first shard of a build to ask makes it,
      // every later one is answered the same
      // (docs/design/shard-plans.md#the-same-plan-for-every-shard). `files_hash` tells a request
      // with other files at once; `shards` and `files` are the answer's JSON. No name of a file is
      // a key: a test file's path may pass a PostgreSQL index entry's bound.
      `CREATE TABLE shard_plans (
        project TEXT NOT NULL,
        plan_key TEXT NOT NULL,
        shard_count BIGINT NOT NULL,
        files_hash TEXT NOT NULL,
        file_count BIGINT NOT NULL,
        basis TEXT NOT NULL,
        shards TEXT NOT NULL,
        files TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (project, plan_key, shard_count)
      )`,
      `CREATE INDEX shard_plans_by_created_at ON shard_plans (created_at)`,
      // What each shard of a run sent (the Testrun-Shard header of its batches): the run page's
      // actual time beside the planned one. Written only with a run's results, removed with them.
      `CREATE TABLE run_shards (
        run_seq BIGINT NOT NULL,
        shard_count BIGINT NOT NULL,
        shard_index BIGINT NOT NULL,
        plan_key TEXT,
        results BIGINT NOT NULL,
        duration DOUBLE PRECISION NOT NULL,
        last_received_at TEXT NOT NULL,
        PRIMARY KEY (run_seq, shard_count, shard_index)
      )`,
    ],
  },
  {
    version: 11,
    name: "quarantine: a project's tests whose failures do not fail the build, every change kept, and the results marked so",
    statements: [
      // One row per test a project ever quarantined (docs/design/quarantine.md): in force while
      // `lifted_at` is null, until `expires_at` (there is no quarantine without one). A test is
      // named by its two names and found by `test_key`, the hex SHA-256 of the JSON array
      // [testSuite, testCase]: names may be longer than a PostgreSQL index entry holds, and
      // the key is what a reporter matches its failures with.
      `CREATE TABLE quarantines (
        project TEXT NOT NULL,
        test_key TEXT NOT NULL,
        test_suite TEXT NOT NULL,
        test_case TEXT NOT NULL,
        reason TEXT NOT NULL,
        owner TEXT,
        since TEXT NOT NULL,
        quarantined_by TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        lifted_at TEXT,
        PRIMARY KEY (project, test_key)
      )`,
      // Every change, never updated or removed: who, when, why, by which way (the API or a page).
      `CREATE TABLE quarantine_changes (
        project TEXT NOT NULL,
        test_key TEXT NOT NULL,
        number BIGINT NOT NULL,
        test_suite TEXT NOT NULL,
        test_case TEXT NOT NULL,
        action TEXT NOT NULL,
        reason TEXT NOT NULL,
        owner TEXT,
        expires_at TEXT,
        changed_by TEXT NOT NULL,
        via TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        PRIMARY KEY (project, test_key, number)
      )`,
      `CREATE INDEX quarantine_changes_by_time ON quarantine_changes (project, changed_at)`,
      // A failed result the reporter marked quarantined: 1, else null (every result before
      // this migration, and every one a service without quarantine gets). The partial index
      // holds only the marked ones, rare: a run's count of them and a project's last
      // quarantined failures are read from it, and a result that is not marked costs nothing here.
      `ALTER TABLE results ADD COLUMN quarantined BIGINT`,
      `CREATE INDEX results_quarantined ON results (run_seq) WHERE quarantined = 1`,
    ],
  },
];

/** PostgreSQL advisory lock taken around migrations, so servers starting together take turns. */
const MIGRATION_LOCK = 7_261_203;

/**
 * A database a newer server has migrated: this one does not know what its later migrations
 * changed, so writing to it could break what the newer server relies on (an older server
 * started on a newer data folder, or restarted beside upgraded ones on one PostgreSQL). It is
 * refused before anything is written.
 */
export class DatabaseFromNewerServerError extends Error {
  readonly code = 'database_from_newer_server';
  constructor(found: number, known: number) {
    super(
      `this database was migrated by a newer testrun server (schema version ${found}; this server knows versions up to ${known}): upgrade @testrun/cli (or @testrun/server) to serve it, or give this server another database. Nothing was changed.`,
    );
    this.name = 'DatabaseFromNewerServerError';
  }
}

/** Applies every migration the database has not recorded yet, in order; answers the versions applied. */
export async function migrate(
  db: SqlDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const newest = await db.transaction(async (tx) => {
    if (db.dialect === 'postgres') await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`,
    );
    const [row] = await tx.query<{ version: number | string | null }>(
      'SELECT max(version) AS version FROM schema_migrations',
    );
    return Number(row?.version ?? 0);
  });
  const known = Math.max(0, ...migrations.map((migration) => migration.version));
  if (newest > known) throw new DatabaseFromNewerServerError(newest, known);
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      // Two servers starting on one PostgreSQL: the second waits here for the first's
      // migration, then finds it recorded. SQLite's data folder has one server at a time.
      if (db.dialect === 'postgres') await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      if (await isApplied(tx, migration.version)) return false;
      for (const statement of migration.statements) {
        const sql = typeof statement === 'string' ? statement : statement[db.dialect];
        if (sql !== undefined) await tx.query(sql);
      }
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        new Date().toISOString(),
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

async function isApplied(tx: SqlExecutor, version: number): Promise<boolean> {
  const rows = await tx.query('SELECT version FROM schema_migrations WHERE version = $1', [version]);
  return rows.length > 0;
}
