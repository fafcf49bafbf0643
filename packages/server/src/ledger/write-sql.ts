// The SQL text of the writer (store-writer.ts), by engine. Both engines share most of it; where
// they part, PostgreSQL runs one statement where SQLite runs several: every statement is a round
// trip to a PostgreSQL backend, parsed, bound and answered, and at ingest those trips, not the
// rows, were most of the cluster's CPU
// (docs/design/server-storage.md#one-statement-one-round-trip). SQLite, in the process, keeps the
// plain statements, which it runs without a trip.

// ─── Both engines ───────────────────────────────────────────────────────────────────────────

/** Inserts a run as given; its tags follow with runTagsSql. */
export const INSERT_RUN = `INSERT INTO runs (seq, id, project, framework, tags, created_at, last_received_at, total, total_duration)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0)`;

/** A run's distinct tags: `$1` the run's seq, `$2`… the tags. */
export function runTagsSql(tags: number): string {
  return `INSERT INTO run_tags (tag, run_seq) VALUES ${Array.from({ length: tags }, (_, index) => `($${index + 2}, $1)`).join(', ')}`;
}

export const END_RUN = 'UPDATE runs SET end_status = $2, ended_at = $3 WHERE id = $1 RETURNING seq';

export const INSERT_RESPONSE = `INSERT INTO idempotent_responses (method, path, key, fingerprint, status, headers, body, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

// ─── PostgreSQL ─────────────────────────────────────────────────────────────────────────────

/**
 * Creating a run: its number from the sequence, the run, and its tags, as one statement. An
 * id not given (integer run ids) is the number's: 2^53 + seq, as FIRST_INTEGER_ID + seq - 1.
 */
export const CREATE_RUN_POSTGRES = `WITH numbered AS (
    SELECT nextval('run_numbers') AS seq
  ), created AS (
    INSERT INTO runs (seq, id, project, framework, tags, created_at, last_received_at, total, total_duration)
    SELECT seq, COALESCE($1::text, (seq + 9007199254740992)::text), $2, $3, $4::text, $5, $5, 0, 0 FROM numbered
    RETURNING id
  ), tagged AS (
    INSERT INTO run_tags (tag, run_seq) SELECT DISTINCT jsonb_array_elements_text($4::text::jsonb), seq FROM numbered
  )
  SELECT id FROM created`;

/**
 * Appending results: the run's totals move on, the results are inserted at the positions that
 * frees, and the counts by status are upserted, as one statement. The batch is ONE parameter,
 * a JSON array of rows that PostgreSQL takes apart itself, instead of 8 parameters a result
 * (measured: 25 % less of the server process's CPU a result). Each row is `[suite, case,
 * status, duration, details (JSON text) or null, attempts or null, attachments (JSON text) or
 * null, quarantined (1) or null]`. SQLite keeps the
 * multi-row VALUES: its `json_each` took more CPU than binding each value into the WebAssembly
 * engine. No row answered: the run is unknown.
 */
export const ADD_RESULTS_POSTGRES = `WITH run AS (
    UPDATE runs SET total = total + $2::bigint, total_duration = total_duration + $3::double precision,
      last_received_at = COALESCE($4::text, last_received_at)
    WHERE id = $1 RETURNING seq, total - $2::bigint AS first
  ), batch AS (
    SELECT run.seq, run.first + ordinality - 1 AS position, r
    FROM run, jsonb_array_elements($5::jsonb) WITH ORDINALITY AS t(r, ordinality)
  ), inserted AS (
    INSERT INTO results (run_seq, position, test_suite, test_case, status, duration, details, attempts, attachments, quarantined)
    SELECT seq, position, r ->> 0, r ->> 1, r ->> 2, (r ->> 3)::double precision, r ->> 4, (r ->> 5)::bigint, r ->> 6, (r ->> 7)::bigint FROM batch
  ), counted AS (
    INSERT INTO run_counts (run_seq, status, count, first_position)
    SELECT seq, r ->> 2, count(*), min(position) FROM batch GROUP BY seq, r ->> 2
    ON CONFLICT (run_seq, status) DO UPDATE SET count = run_counts.count + excluded.count
  )
  SELECT seq FROM run`;

/**
 * The next run number for an imported run. A sequence (migration 4): the counters row,
 * updated in the create-run's transaction, stayed locked until its COMMIT, so every create-run
 * of every connection waited for the one before it to reach the disk.
 */
export const NEXT_RUN_SEQ_POSTGRES = "SELECT nextval('run_numbers') AS value";

// ─── SQLite ─────────────────────────────────────────────────────────────────────────────────

/** The next run number: SQLite has one writer, so the counters row holds no one up. */
export const NEXT_RUN_SEQ_SQLITE = "UPDATE counters SET value = value + 1 WHERE name = 'run' RETURNING value";

/** Appending results, first: the run's totals move on, which takes the positions the results get. */
export const ADVANCE_RUN_SQLITE = `UPDATE runs SET total = total + $2, total_duration = total_duration + $3,
         last_received_at = COALESCE($4, last_received_at)
       WHERE id = $1 RETURNING seq, total`;

/** Rows a multi-row INSERT carries on SQLite: well under its limit on parameters. */
export const ROWS_PER_INSERT = 100;

const insertResultRowsSqls = new Map<number, string>();

/**
 * Appending results, then: the multi-row INSERT for `rows` results, built once per row count:
 * the same string object each time, so the statement cache finds it without hashing 5 KB of
 * new text a request.
 */
export function insertResultRowsSql(rows: number): string {
  let sql = insertResultRowsSqls.get(rows);
  if (sql === undefined) {
    const values = Array.from({ length: rows }, (_, row) => {
      const at = row * 10;
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, $${at + 7}, $${at + 8}, $${at + 9}, $${at + 10})`;
    });
    sql = `INSERT INTO results (run_seq, position, test_suite, test_case, status, duration, details, attempts, attachments, quarantined) VALUES ${values.join(', ')}`;
    insertResultRowsSqls.set(rows, sql);
  }
  return sql;
}

/** Appending results, last: the counts of `statuses` statuses, one row each (`$1` the run's seq, then status, count, first position). */
export function upsertCountsSql(statuses: number): string {
  const values = Array.from({ length: statuses }, (_, index) => {
    const at = 1 + index * 3;
    return `($1, $${at + 1}, $${at + 2}, $${at + 3})`;
  });
  return `INSERT INTO run_counts (run_seq, status, count, first_position) VALUES ${values.join(', ')}
       ON CONFLICT (run_seq, status) DO UPDATE SET count = run_counts.count + excluded.count`;
}
