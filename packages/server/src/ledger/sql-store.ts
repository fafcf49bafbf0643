import {
  isUniqueViolation,
  type SqlDatabase,
  type SqlExecutor,
  type SqlRow,
  type SqlTransaction,
  type SqlValue,
} from '../database/sql-database.js';
import { type RunState, stateCondition } from './run-state.js';
import type {
  ResultInput,
  RunEnd,
  RunEndStatus,
  RunWithCounts,
  SavedResponse,
  Store,
  StoredResult,
  StoredRun,
} from './store.js';

/** What an Idempotency-Key is scoped to: the same key on another method or path is another key. */
export interface IdempotencyScope {
  key: string;
  method: string;
  path: string;
}

export interface IdempotentResponse extends IdempotencyScope {
  fingerprint: string;
  response: SavedResponse;
}

export interface RunsFilter {
  project?: string | undefined;
  framework?: string | undefined;
  tag?: string | undefined;
  /** A branch (the `branch:` tag core adds in CI): its name, or a pattern with `*` (`release/*`). */
  branch?: string | undefined;
  state?: RunState | undefined;
}

export interface ResultsFilter {
  status?: string | undefined;
  /** Suite or test name contains this, ignoring (ASCII) case. */
  search?: string | undefined;
}

/** One page, and where the next starts (undefined on the last). */
export interface Page<Item> {
  items: Item[];
  next: string | undefined;
}

/** 2^53 + 1: the first integer a double cannot hold. */
const FIRST_INTEGER_ID = 9_007_199_254_740_993n;

/** Rows a multi-row INSERT carries on SQLite: well under its limit on parameters. */
const ROWS_PER_INSERT = 100;

/**
 * On PostgreSQL a write is one statement where SQLite runs several: every statement is a round
 * trip to a backend, parsed, bound and answered, and at ingest those trips, not the rows, were
 * most of the cluster's CPU (docs/design.md §21b). SQLite, in the process, keeps the plain
 * statements, which it runs without a trip.
 *
 * Appending results: the run's totals move on, the results are inserted at the positions that
 * frees, and the counts by status are upserted, as one statement. The batch is ONE parameter,
 * a JSON array of rows that PostgreSQL takes apart itself, instead of 8 parameters a result
 * (measured: 25 % less of the server process's CPU a result). Each row is `[suite, case,
 * status, duration, details (JSON text) or null, attempts or null]`. SQLite keeps the
 * multi-row VALUES: its `json_each` took more CPU than binding each value into the WebAssembly
 * engine. No row answered: the run is unknown.
 */
const ADD_RESULTS_POSTGRES = `WITH run AS (
    UPDATE runs SET total = total + $2::bigint, total_duration = total_duration + $3::double precision,
      last_received_at = COALESCE($4::text, last_received_at)
    WHERE id = $1 RETURNING seq, total - $2::bigint AS first
  ), batch AS (
    SELECT run.seq, run.first + ordinality - 1 AS position, r
    FROM run, jsonb_array_elements($5::jsonb) WITH ORDINALITY AS t(r, ordinality)
  ), inserted AS (
    INSERT INTO results (run_seq, position, test_suite, test_case, status, duration, details, attempts)
    SELECT seq, position, r ->> 0, r ->> 1, r ->> 2, (r ->> 3)::double precision, r ->> 4, (r ->> 5)::bigint FROM batch
  ), counted AS (
    INSERT INTO run_counts (run_seq, status, count, first_position)
    SELECT seq, r ->> 2, count(*), min(position) FROM batch GROUP BY seq, r ->> 2
    ON CONFLICT (run_seq, status) DO UPDATE SET count = run_counts.count + excluded.count
  )
  SELECT seq FROM run`;

/**
 * Creating a run: its number from the sequence, the run, and its tags, as one statement. An
 * id not given (integer run ids) is the number's: 2^53 + seq, as FIRST_INTEGER_ID + seq - 1.
 */
const CREATE_RUN_POSTGRES = `WITH numbered AS (
    SELECT nextval('run_numbers') AS seq
  ), created AS (
    INSERT INTO runs (seq, id, project, framework, tags, created_at, last_received_at, total, total_duration)
    SELECT seq, COALESCE($1::text, (seq + 9007199254740992)::text), $2, $3, $4::text, $5, $5, 0, 0 FROM numbered
    RETURNING id
  ), tagged AS (
    INSERT INTO run_tags (tag, run_seq) SELECT DISTINCT jsonb_array_elements_text($4::text::jsonb), seq FROM numbered
  )
  SELECT id FROM created`;

interface RunRow extends SqlRow {
  seq: number | string;
  id: string;
  project: string;
  framework: string;
  tags: string;
  created_at: string;
  last_received_at: string;
  end_status: string | null;
  ended_at: string | null;
  total: number | string;
  total_duration: number | string;
}

interface ResultRow extends SqlRow {
  position: number | string;
  test_suite: string;
  test_case: string;
  status: string;
  duration: number | string;
  details: string | null;
}

const RUN_COLUMNS =
  'seq, id, project, framework, tags, created_at, last_received_at, end_status, ended_at, total, total_duration';
const RESULT_COLUMNS = 'position, test_suite, test_case, status, duration, details';

/**
 * The results of one test, its names the parameters `suite` and `testCase`: the names, and
 * their first 200 characters, which are what PostgreSQL's results_by_run_and_test holds
 * (migration 8: a name of any length); SQLite's holds the names and uses them.
 */
export function namedTest(suite: string, testCase: string): string {
  return `test_suite = ${suite} AND test_case = ${testCase} AND substr(test_suite, 1, 200) = substr(${suite}, 1, 200) AND substr(test_case, 1, 200) = substr(${testCase}, 1, 200)`;
}

/** Which results the flaky rule reads; the same words as results_failed_or_retried's (migrations.ts). */
export const FAILED_OR_RETRIED = "(status = 'failed' OR attempts > 1)";

/** Which of the runs' results lastRunsWithResults reads: one test's, or the tests that failed or were retried. */
export interface ResultsOfRuns {
  test?: { testSuite: string; testCase: string };
  onlyTestsThatFailed?: boolean;
}

/**
 * The server's state in a database (SQLite or PostgreSQL, through SqlDatabase): runs, their
 * results in arrival order, per-run counts kept on every write, how runs ended, and the saved
 * answers to idempotent writes. Writes go through `write`, one transaction each, answered
 * only once committed; reads page, so nothing grows in memory with what is stored.
 */
export class SqlStore implements Store {
  constructor(
    readonly db: SqlDatabase,
    private readonly statuses: readonly string[],
  ) {}

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

  // Reads that page.

  async runCount(): Promise<number> {
    const rows = await this.db.query<{ n: number | string }>('SELECT count(*) AS n FROM runs');
    return Number(rows[0]?.n ?? 0);
  }

  /** One run with its counts; undefined for an unknown id. */
  async runWithCounts(id: string): Promise<RunWithCounts | undefined> {
    const row = await runRow(this.db, id);
    if (!row) return undefined;
    const [counted] = await this.#withCounts([row]);
    return counted;
  }

  /** One run with its counts, read inside a write's transaction. */
  async withCountsIn(writer: StoreWriter, id: string): Promise<RunWithCounts | undefined> {
    const row = await runRow(writer.tx, id);
    if (!row) return undefined;
    const [counted] = await this.#withCounts([row], writer.tx);
    return counted;
  }

  /**
   * Runs newest first, `limit` of them from `cursor` (a page's `next`), narrowed by `filter`.
   * `now` and `abandonedAfterMs` tell a running run from an abandoned one.
   */
  async runsPage(
    filter: RunsFilter,
    { limit, cursor }: { limit: number; cursor?: string | undefined },
    states: { now: number; abandonedAfterMs: number },
  ): Promise<Page<RunWithCounts>> {
    const { where, params } = runsWhere(filter, states);
    const before = cursor === undefined ? undefined : Number(cursor);
    if (before !== undefined) {
      params.push(before);
      where.push(`seq < $${params.length}`);
    }
    params.push(limit + 1);
    const rows = await this.db.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs ${whereClause(where)} ORDER BY seq DESC LIMIT $${params.length}`,
      params,
    );
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      items: await this.#withCounts(shown),
      next: rows.length > limit && last ? String(last.seq) : undefined,
    };
  }

  /** How many runs match `filter`. */
  async countRuns(filter: RunsFilter, states: { now: number; abandonedAfterMs: number }): Promise<number> {
    const { where, params } = runsWhere(filter, states);
    const counted = await this.db.query<{ n: number | string }>(countRunsSql(filter, where), params);
    return Number(counted[0]?.n ?? 0);
  }

  /** Whether any run is stored (the runs list's empty state), without counting them. */
  async anyRuns(): Promise<boolean> {
    return (await this.db.query('SELECT seq FROM runs LIMIT 1')).length > 0;
  }

  /**
   * Runs newest first by offset (the pages' pager). Given `matching` (countRuns of the same
   * filter), a page in the older half is read from the oldest end, so that the last page
   * walks as few rows as the first: an OFFSET reads every row it skips (on PostgreSQL 100,000
   * heap rows for the last of 100,000 runs).
   */
  async runsByOffset(
    filter: RunsFilter,
    { limit, offset, matching }: { limit: number; offset: number; matching?: number | undefined },
    states: { now: number; abandonedAfterMs: number },
  ): Promise<RunWithCounts[]> {
    const { where, params } = runsWhere(filter, states);
    const fromOldest = matching !== undefined && offset > matching / 2;
    const [order, rowsLimit, rowsOffset] = fromOldest
      ? ['ASC', Math.max(0, Math.min(limit, matching - offset)), Math.max(0, matching - offset - limit)]
      : ['DESC', limit, offset];
    if (rowsLimit === 0) return [];
    const rows = await this.db.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs ${whereClause(where)} ORDER BY seq ${order} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, rowsLimit, rowsOffset],
    );
    return this.#withCounts(fromOldest ? rows.reverse() : rows);
  }

  /**
   * Distinct values of a run's field, sorted, at most `limit` (the filters' choices). Read as
   * a skip through the field's index, one probe per value (`> the last one found`): a
   * `DISTINCT` reads every run's entry, 100,000 of them for 10 projects, which PostgreSQL
   * does in ~15 ms on every list page.
   */
  async choices(field: 'project' | 'framework' | 'tag', limit: number): Promise<string[]> {
    const [table, column] = field === 'tag' ? ['run_tags', 'tag'] : ['runs', field];
    const rows = await this.db.query<{ value: string }>(
      `WITH RECURSIVE found (value) AS (
         SELECT (SELECT ${column} FROM ${table} ORDER BY ${column} LIMIT 1)
         UNION ALL
         SELECT (SELECT ${column} FROM ${table} WHERE ${column} > found.value ORDER BY ${column} LIMIT 1)
           FROM found WHERE found.value IS NOT NULL
       )
       SELECT value FROM found WHERE value IS NOT NULL LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.value);
  }

  /** The tags of the newest runs, most used first, then sorted: the tag filter's short list. */
  async recentTags(limit: number, lookBackRuns: number): Promise<string[]> {
    const rows = await this.db.query<{ tag: string }>(
      `SELECT tag FROM run_tags WHERE run_seq BETWEEN $1 AND $2 GROUP BY tag ORDER BY count(*) DESC, tag LIMIT $3`,
      [...(await this.#newestRuns(lookBackRuns)), limit],
    );
    return rows.map((row) => row.tag).sort((a, b) => a.localeCompare(b));
  }

  /** The branches of the newest runs (their `branch:` tags), most used first, then sorted: the branch filter's suggestions. */
  async recentBranches(limit: number, lookBackRuns: number): Promise<string[]> {
    const rows = await this.db.query<{ tag: string }>(
      `SELECT tag FROM run_tags WHERE tag LIKE 'branch:%' AND run_seq BETWEEN $1 AND $2
       GROUP BY tag ORDER BY count(*) DESC, tag LIMIT $3`,
      [...(await this.#newestRuns(lookBackRuns)), limit],
    );
    return rows.map((row) => row.tag.slice('branch:'.length)).sort((a, b) => a.localeCompare(b));
  }

  /**
   * The seqs of the oldest and the newest of the newest `runs` runs ([0, 0] with none): their
   * tags are then a range of run_tags_by_run. Looked up first and bound as values: with
   * `run_seq IN (the newest runs)` PostgreSQL's planner, not knowing how few rows that is,
   * read all of run_tags (~15 ms at 100,000 runs), and a range open at one end let SQLite,
   * without statistics, scan all of run_tags' primary key instead.
   */
  async #newestRuns(runs: number): Promise<[oldest: number, newest: number]> {
    const rows = await this.db.query<{ oldest: number | string | null; newest: number | string | null }>(
      `SELECT (SELECT seq FROM runs ORDER BY seq DESC LIMIT 1 OFFSET $1) AS oldest,
              (SELECT seq FROM runs ORDER BY seq DESC LIMIT 1) AS newest`,
      [runs - 1],
    );
    return [Number(rows[0]?.oldest ?? 0), Number(rows[0]?.newest ?? 0)];
  }

  /** A run's results in arrival order, `limit` from `cursor`, narrowed by `filter`. */
  async resultsPage(
    runId: string,
    filter: ResultsFilter,
    { limit, cursor }: { limit: number; cursor?: string | undefined },
  ): Promise<Page<StoredResult> & { matching?: number }> {
    const { where, params } = resultsWhere(runId, filter);
    if (cursor !== undefined) {
      params.push(Number(cursor));
      where.push(`position > $${params.length}`);
    }
    params.push(limit + 1);
    const rows = await this.db.query<ResultRow>(
      `SELECT ${RESULT_COLUMNS} FROM results ${whereClause(where)} ORDER BY position LIMIT $${params.length}`,
      params,
    );
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      items: shown.map((row) => storedResult(runId, row)),
      next: rows.length > limit && last ? String(last.position) : undefined,
    };
  }

  /** A run's results in arrival order by offset (the run page's pager). */
  async resultsByOffset(
    runId: string,
    filter: ResultsFilter,
    { limit, offset }: { limit: number; offset: number },
  ): Promise<StoredResult[]> {
    const { where, params } = resultsWhere(runId, filter);
    const rows = await this.db.query<ResultRow>(
      `SELECT ${RESULT_COLUMNS} FROM results ${whereClause(where)} ORDER BY position LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    return rows.map((row) => storedResult(runId, row));
  }

  /** How many of a run's results match `filter`. */
  async countResults(runId: string, filter: ResultsFilter): Promise<number> {
    const { where, params } = resultsWhere(runId, filter);
    const rows = await this.db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM results ${whereClause(where)}`,
      params,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** A run's slowest results among those that ran (not `notRun` statuses), slowest first. */
  async slowestResults(
    runId: string,
    filter: ResultsFilter,
    notRun: readonly string[],
    limit: number,
  ): Promise<StoredResult[]> {
    const { where, params } = resultsWhere(runId, filter);
    for (const status of notRun) {
      params.push(status);
      where.push(`status <> $${params.length}`);
    }
    params.push(limit);
    const rows = await this.db.query<ResultRow>(
      `SELECT ${RESULT_COLUMNS} FROM results ${whereClause(where)} ORDER BY duration DESC, position LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => storedResult(runId, row));
  }

  /**
   * A project's last `count` runs, oldest first, with their results (narrowed by `which`):
   * the test and flaky pages. The runs' seqs come with them, so the results
   * are read without looking the runs up again by id.
   */
  async lastRunsWithResults(
    project: string,
    count: number,
    which: ResultsOfRuns = {},
  ): Promise<{ runs: StoredRun[]; results: Map<string, StoredResult[]> }> {
    const rows = await this.db.query<RunRow>(
      `SELECT ${RUN_COLUMNS} FROM runs WHERE project = $1 ORDER BY seq DESC LIMIT $2`,
      [project, count],
    );
    const runs = rows.reverse().map(storedRun);
    const results = await this.#resultsOfSeqs(
      rows.map((row) => [Number(row.seq), row.id]),
      which,
    );
    return { runs, results };
  }

  /**
   * The results of these runs (by seq), by run id: for the test page one test's (`test`), for
   * the flaky rule (`onlyTestsThatFailed`) only the tests that failed in at least one of them
   * or passed there after more than one attempt: the only tests either of its lists can hold.
   */
  async #resultsOfSeqs(
    runs: readonly (readonly [seq: number, id: string])[],
    which: ResultsOfRuns,
  ): Promise<Map<string, StoredResult[]>> {
    const byRun = new Map<string, StoredResult[]>(runs.map(([, id]) => [id, []]));
    if (runs.length === 0) return byRun;
    // Every scan by results' seq, never a subquery on ids: that let PostgreSQL's planner reach
    // results through a status filter over the whole table or through results_by_test across
    // every run, growing with what is stored.
    const idOf = new Map(runs);
    const params: SqlValue[] = runs.map(([seq]) => seq);
    const inRuns = `run_seq IN (${params.map((_, index) => `$${index + 1}`).join(', ')})`;
    let sql = `SELECT run_seq, ${RESULT_COLUMNS} FROM results WHERE ${inRuns}`;
    if (which.test) {
      params.push(which.test.testSuite, which.test.testCase);
      sql += ` AND ${namedTest(`$${params.length - 1}`, `$${params.length}`)}`;
    }
    if (which.onlyTestsThatFailed) {
      // Written as results_failed_or_retried's condition, so that both engines read the tests
      // from that small index (migration 3) rather than every result of the runs.
      sql += ` AND (test_suite, test_case) IN (SELECT test_suite, test_case FROM results WHERE ${inRuns} AND ${FAILED_OR_RETRIED})`;
    }
    const rows = await this.db.query<ResultRow & { run_seq: number | string }>(
      `${sql} ORDER BY run_seq, position`,
      params,
    );
    for (const row of rows) {
      const runId = idOf.get(Number(row.run_seq)) as string;
      byRun.get(runId)?.push(storedResult(runId, row));
    }
    return byRun;
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

  /** The statuses the server accepts, each counted (0 when none), then any other stored one. */
  async #withCounts(rows: readonly RunRow[], db: SqlExecutor = this.db): Promise<RunWithCounts[]> {
    if (rows.length === 0) return [];
    const list = rows.map((_, index) => `$${index + 1}`).join(', ');
    const countRows = await db.query<{ run_seq: number | string; status: string; count: number | string }>(
      `SELECT run_seq, status, count FROM run_counts WHERE run_seq IN (${list}) ORDER BY run_seq, first_position`,
      rows.map((row) => Number(row.seq)),
    );
    const countsBySeq = new Map<number, Record<string, number>>();
    for (const row of rows) {
      countsBySeq.set(Number(row.seq), Object.fromEntries(this.statuses.map((status) => [status, 0])));
    }
    for (const { run_seq, status, count } of countRows) {
      const counts = countsBySeq.get(Number(run_seq));
      if (counts) counts[status] = (counts[status] ?? 0) + Number(count);
    }
    return rows.map((row) => {
      const end = endOfRow(row);
      return {
        ...storedRun(row),
        ...(end ? { end } : {}),
        lastReceivedAt: row.last_received_at,
        counts: countsBySeq.get(Number(row.seq)) ?? {},
        total: Number(row.total),
        totalDuration: Number(row.total_duration),
      };
    });
  }
}

/** The writes of one transaction. */
export class StoreWriter {
  constructor(
    readonly tx: SqlTransaction,
    private readonly dialect: SqlDatabase['dialect'],
  ) {}

  async run(id: string): Promise<StoredRun | undefined> {
    const row = await runRow(this.tx, id);
    return row ? storedRun(row) : undefined;
  }

  async endOf(runId: string): Promise<RunEnd | undefined> {
    const row = await runRow(this.tx, runId);
    return row ? endOfRow(row) : undefined;
  }

  /** Creates a run; its number comes from the database, so servers sharing one never collide. */
  async createRun(
    input: Omit<StoredRun, 'id'>,
    runIds: 'uuid' | 'integer',
    uuid: () => string,
  ): Promise<StoredRun> {
    if (this.dialect === 'postgres') {
      const rows = await this.tx.query<{ id: string }>(CREATE_RUN_POSTGRES, [
        runIds === 'uuid' ? uuid() : null,
        input.project,
        input.framework,
        JSON.stringify(input.tags),
        input.createdAt,
      ]);
      return { id: (rows[0] as { id: string }).id, ...input };
    }
    const seq = await this.#nextRunSeq();
    const id = runIds === 'uuid' ? uuid() : String(FIRST_INTEGER_ID + BigInt(seq - 1));
    const run: StoredRun = { id, ...input };
    await this.insertRun(seq, run, run.createdAt);
    return run;
  }

  /** Inserts a run as given (the import of an older data file keeps its ids). */
  async insertRun(seq: number, run: StoredRun, lastReceivedAt: string): Promise<void> {
    await this.tx.query(
      `INSERT INTO runs (seq, id, project, framework, tags, created_at, last_received_at, total, total_duration)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0)`,
      [seq, run.id, run.project, run.framework, JSON.stringify(run.tags), run.createdAt, lastReceivedAt],
    );
    const tags = [...new Set(run.tags)];
    if (tags.length > 0) {
      await this.tx.query(
        `INSERT INTO run_tags (tag, run_seq) VALUES ${tags.map((_, index) => `($${index + 2}, $1)`).join(', ')}`,
        [seq, ...tags],
      );
    }
  }

  async #nextRunSeq(): Promise<number> {
    // On PostgreSQL a sequence (migration 4): the counters row, updated in the create-run's
    // transaction, stayed locked until its COMMIT, so every create-run of every connection
    // waited for the one before it to reach the disk. SQLite has one writer anyway.
    const rows = await this.tx.query<{ value: number | string }>(
      this.dialect === 'postgres'
        ? "SELECT nextval('run_numbers') AS value"
        : "UPDATE counters SET value = value + 1 WHERE name = 'run' RETURNING value",
    );
    return Number(rows[0]?.value);
  }

  /** The next run number for an imported run. */
  nextRunSeq(): Promise<number> {
    return this.#nextRunSeq();
  }

  /**
   * Appends results to a run in arrival order and adds them to its counts; false for an
   * unknown run. `receivedAt` undefined (older data files) leaves the last-received time.
   */
  async addResults(
    runId: string,
    results: readonly ResultInput[],
    receivedAt: string | undefined,
  ): Promise<boolean> {
    let duration = 0;
    for (const result of results) duration += result.duration;
    if (this.dialect === 'postgres') {
      const rows = await this.tx.query(ADD_RESULTS_POSTGRES, [
        runId,
        results.length,
        duration,
        receivedAt ?? null,
        JSON.stringify(results.map(resultColumns)),
      ]);
      return rows.length > 0;
    }
    // Taking the positions and updating the counts is one statement.
    const rows = await this.tx.query<{ seq: number | string; total: number | string }>(
      `UPDATE runs SET total = total + $2, total_duration = total_duration + $3,
         last_received_at = COALESCE($4, last_received_at)
       WHERE id = $1 RETURNING seq, total`,
      [runId, results.length, duration, receivedAt ?? null],
    );
    const row = rows[0];
    if (!row) return false;
    const seq = Number(row.seq);
    const first = Number(row.total) - results.length;
    await this.#insertResultRows(seq, first, results);

    // The counts, one row per status, in one statement.
    const byStatus = new Map<string, { count: number; firstPosition: number }>();
    results.forEach((result, index) => {
      const seen = byStatus.get(result.status);
      if (seen) seen.count += 1;
      else byStatus.set(result.status, { count: 1, firstPosition: first + index });
    });
    const params: SqlValue[] = [seq];
    const values: string[] = [];
    for (const [status, { count, firstPosition }] of byStatus) {
      params.push(status, count, firstPosition);
      values.push(`($1, $${params.length - 2}, $${params.length - 1}, $${params.length})`);
    }
    await this.tx.query(
      `INSERT INTO run_counts (run_seq, status, count, first_position) VALUES ${values.join(', ')}
       ON CONFLICT (run_seq, status) DO UPDATE SET count = run_counts.count + excluded.count`,
      params,
    );
    return true;
  }

  async #insertResultRows(seq: number, first: number, results: readonly ResultInput[]): Promise<void> {
    for (let start = 0; start < results.length; start += ROWS_PER_INSERT) {
      const end = Math.min(start + ROWS_PER_INSERT, results.length);
      const params: SqlValue[] = [];
      for (let index = start; index < end; index++) {
        const result = results[index] as ResultInput;
        params.push(seq, first + index, ...resultColumns(result));
      }
      await this.tx.query(insertResultRowsSql(end - start), params);
    }
  }

  /** Records how the run ended; false for an unknown run. */
  async endRun(runId: string, end: RunEnd): Promise<boolean> {
    const rows = await this.tx.query<{ seq: number | string }>(
      'UPDATE runs SET end_status = $2, ended_at = $3 WHERE id = $1 RETURNING seq',
      [runId, end.status, end.endedAt],
    );
    return rows.length > 0;
  }

  /**
   * Saves the first successful answer for an Idempotency-Key as the transaction's last
   * statement (on PostgreSQL its COMMIT goes with it): what a write request does. False when
   * one is already saved: another request with the key (on this server or another) committed
   * first; the caller throws, so that the write is rolled back (on PostgreSQL the failed
   * insert already did).
   */
  async saveResponseLast(record: IdempotentResponse, createdAt: string): Promise<boolean> {
    try {
      await this.tx.queryLast(INSERT_RESPONSE, responseValues(record, createdAt));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Saves an answer among other statements (an import); one already saved for the key is kept. */
  async saveResponse(record: IdempotentResponse, createdAt: string): Promise<void> {
    await this.tx.query(
      `${INSERT_RESPONSE} ON CONFLICT (method, path, key) DO NOTHING`,
      responseValues(record, createdAt),
    );
  }
}

const INSERT_RESPONSE = `INSERT INTO idempotent_responses (method, path, key, fingerprint, status, headers, body, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

/** An idempotent answer's columns, in INSERT_RESPONSE's order. */
function responseValues(record: IdempotentResponse, createdAt: string): SqlValue[] {
  const { status, headers, body } = record.response;
  return [
    record.method,
    record.path,
    record.key,
    record.fingerprint,
    status,
    JSON.stringify(headers),
    JSON.stringify(body),
    createdAt,
  ];
}

const insertResultRowsSqls = new Map<number, string>();

/**
 * The multi-row INSERT for `rows` results, built once per row count: the same string object
 * each time, so the statement cache finds it without hashing 5 KB of new text a request.
 */
function insertResultRowsSql(rows: number): string {
  let sql = insertResultRowsSqls.get(rows);
  if (sql === undefined) {
    const values = Array.from({ length: rows }, (_, row) => {
      const at = row * 8;
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6}, $${at + 7}, $${at + 8})`;
    });
    sql = `INSERT INTO results (run_seq, position, test_suite, test_case, status, duration, details, attempts) VALUES ${values.join(', ')}`;
    insertResultRowsSqls.set(rows, sql);
  }
  return sql;
}

/** A result's stored columns after run_seq and position, in the INSERTs' order. */
function resultColumns(result: ResultInput): SqlValue[] {
  return [
    result.testSuite,
    result.testCase,
    result.status,
    result.duration,
    result.details === undefined ? null : JSON.stringify(result.details),
    result.details?.attempts ?? null,
  ];
}

async function runRow(db: SqlExecutor, id: string): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = $1`, [id]);
  return rows[0];
}

function storedRun(row: RunRow): StoredRun {
  return {
    id: row.id,
    project: row.project,
    framework: row.framework,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
  };
}

function endOfRow(row: RunRow): RunEnd | undefined {
  if (row.end_status === null || row.ended_at === null) return undefined;
  return { status: row.end_status as RunEndStatus, endedAt: row.ended_at };
}

function storedResult(runId: string, row: ResultRow): StoredResult {
  const result: StoredResult = {
    runId,
    testSuite: row.test_suite,
    testCase: row.test_case,
    status: row.status,
    duration: Number(row.duration),
  };
  if (row.details !== null) result.details = JSON.parse(row.details);
  return result;
}

function runsWhere(
  filter: RunsFilter,
  states: { now: number; abandonedAfterMs: number },
): { where: string[]; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  if (filter.project !== undefined) {
    params.push(filter.project);
    where.push(`project = $${params.length}`);
  }
  if (filter.framework !== undefined) {
    params.push(filter.framework);
    where.push(`framework = $${params.length}`);
  }
  if (filter.tag !== undefined) {
    params.push(filter.tag);
    where.push(`seq IN (SELECT run_seq FROM run_tags WHERE tag = $${params.length})`);
  }
  if (filter.branch !== undefined) {
    params.push(`branch:${likePattern(filter.branch)}`);
    where.push(`seq IN (SELECT run_seq FROM run_tags WHERE tag LIKE $${params.length} ESCAPE '\\')`);
  }
  if (filter.state !== undefined) {
    const condition = stateCondition(filter.state, states.now, states.abandonedAfterMs, params.length + 1);
    params.push(...condition.params);
    where.push(condition.sql);
  }
  return { where, params };
}

/**
 * Counting runs by a tag or a branch alone counts their run_tags rows (each is one stored
 * run's): through `seq IN (…)` PostgreSQL merge-joined every run's key (~15 ms for a tag, 250 ms
 * for a branch every run has, at 100,000 runs). Any other filter counts the runs themselves.
 */
function countRunsSql(filter: RunsFilter, where: readonly string[]): string {
  const given = (Object.keys(filter) as (keyof RunsFilter)[]).filter((key) => filter[key] !== undefined);
  if (given.length === 1 && given[0] === 'tag') return 'SELECT count(*) AS n FROM run_tags WHERE tag = $1';
  if (given.length === 1 && given[0] === 'branch') {
    // A run may carry two branch tags that one pattern matches: count it once.
    return "SELECT count(DISTINCT run_seq) AS n FROM run_tags WHERE tag LIKE $1 ESCAPE '\\'";
  }
  return `SELECT count(*) AS n FROM runs ${whereClause(where)}`;
}

/** Text that LIKE matches as written: its own `%`, `_` and backslash escaped (the queries say `ESCAPE` backslash). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A branch name as a LIKE pattern: itself, with `*` matching any run of characters. */
function likePattern(text: string): string {
  return likeLiteral(text).replace(/\*/g, '%');
}

function resultsWhere(runId: string, filter: ResultsFilter): { where: string[]; params: SqlValue[] } {
  const params: SqlValue[] = [runId];
  const where = ['run_seq = (SELECT seq FROM runs WHERE id = $1)'];
  if (filter.status !== undefined) {
    params.push(filter.status);
    where.push(`status = $${params.length}`);
  }
  if (filter.search !== undefined) {
    params.push(`%${likeLiteral(filter.search.toLowerCase())}%`);
    const n = params.length;
    where.push(`(lower(test_suite) LIKE $${n} ESCAPE '\\' OR lower(test_case) LIKE $${n} ESCAPE '\\')`);
  }
  return { where, params };
}

function whereClause(where: readonly string[]): string {
  return where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
}
