import type { SqlDatabase, SqlExecutor, SqlValue } from '../database/sql-database.js';
import {
  countRunsSql,
  FAILED_OR_RETRIED,
  namedTest,
  type ResultsFilter,
  type RunsFilter,
  resultsWhere,
  runsWhere,
  type StateClock,
  whereClause,
} from './filters.js';
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
import type { RunWithCounts, StoredResult, StoredRun } from './store.js';
import type { StoreWriter } from './store-writer.js';

/** One page, and where the next starts (undefined on the last). */
export interface Page<Item> {
  items: Item[];
  next: string | undefined;
}

/** Which of the runs' results lastRunsWithResults reads: one test's, or the tests that failed or were retried. */
export interface ResultsOfRuns {
  test?: { testSuite: string; testCase: string };
  onlyTestsThatFailed?: boolean;
}

/**
 * Every query a page or the read API runs, each reading one page of rows, so nothing grows in
 * memory with what is stored. By page (pages/routes.ts):
 *
 * - runs list `/`: countRuns, runsByOffset, anyRuns, choices, recentTags, recentBranches
 * - a run `/runs/:id`: runWithCounts, countResults, resultsByOffset, slowestResults
 * - a test `/test`: lastRunsWithResults (`test`); flaky `/flaky`: choices, lastRunsWithResults
 *   (`onlyTestsThatFailed`)
 * - the read API (api/read.ts): runsPage, runWithCounts, resultsPage; a write's answer
 *   (api/write.ts): withCountsIn
 *
 * The WHERE a filter becomes is filters.ts; what a row becomes, rows.ts.
 */
export class PageReads {
  constructor(
    readonly db: SqlDatabase,
    private readonly statuses: readonly string[],
  ) {}

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
    states: StateClock,
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
  async countRuns(filter: RunsFilter, states: StateClock): Promise<number> {
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
    states: StateClock,
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
    const quarantined = await this.#quarantinedCounts(rows, countsBySeq, db);
    return rows.map((row) => {
      const end = endOfRow(row);
      const marked = quarantined.get(Number(row.seq));
      return {
        ...storedRun(row),
        ...(end ? { end } : {}),
        lastReceivedAt: row.last_received_at,
        counts: countsBySeq.get(Number(row.seq)) ?? {},
        ...(marked ? { quarantined: marked } : {}),
        total: Number(row.total),
        totalDuration: Number(row.total_duration),
      };
    });
  }

  /**
   * How many of each run's failures were quarantined (docs/design/quarantine.md), read only for runs
   * that have failures, from the partial index of marked results (migration 11): a page of
   * green runs asks nothing more.
   */
  async #quarantinedCounts(
    rows: readonly RunRow[],
    countsBySeq: ReadonlyMap<number, Record<string, number>>,
    db: SqlExecutor,
  ): Promise<Map<number, number>> {
    const failing = rows
      .map((row) => Number(row.seq))
      .filter((seq) => (countsBySeq.get(seq)?.failed ?? 0) > 0);
    if (failing.length === 0) return new Map();
    const list = failing.map((_, index) => `$${index + 1}`).join(', ');
    const counted = await db.query<{ run_seq: number | string; n: number | string }>(
      `SELECT run_seq, count(*) AS n FROM results WHERE run_seq IN (${list}) AND quarantined = 1 GROUP BY run_seq`,
      failing,
    );
    return new Map(counted.map((row) => [Number(row.run_seq), Number(row.n)]));
  }
}
