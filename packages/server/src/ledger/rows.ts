import type { SqlExecutor, SqlRow, SqlValue } from '../database/sql-database.js';
import type { ResultInput, RunEnd, RunEndStatus, StoredResult, StoredRun } from './store.js';

// Rows as the two engines answer them, and what the store makes of them: PostgreSQL answers
// a BIGINT as a string, SQLite as a number, so every count and seq goes through Number().

export interface RunRow extends SqlRow {
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

export interface ResultRow extends SqlRow {
  position: number | string;
  test_suite: string;
  test_case: string;
  status: string;
  duration: number | string;
  details: string | null;
  attachments: string | null;
  /** 1 when the reporter marked the failure quarantined (migration 11), else null. */
  quarantined: number | string | null;
}

export const RUN_COLUMNS =
  'seq, id, project, framework, tags, created_at, last_received_at, end_status, ended_at, total, total_duration';
export const RESULT_COLUMNS =
  'position, test_suite, test_case, status, duration, details, attachments, quarantined';

/** One run's row by its id: the reads and the writer's look-ups share it. */
export async function runRow(db: SqlExecutor, id: string): Promise<RunRow | undefined> {
  const rows = await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = $1`, [id]);
  return rows[0];
}

export function storedRun(row: RunRow): StoredRun {
  return {
    id: row.id,
    project: row.project,
    framework: row.framework,
    tags: JSON.parse(row.tags) as string[],
    createdAt: row.created_at,
  };
}

export function endOfRow(row: RunRow): RunEnd | undefined {
  if (row.end_status === null || row.ended_at === null) return undefined;
  return { status: row.end_status as RunEndStatus, endedAt: row.ended_at };
}

export function storedResult(runId: string, row: ResultRow): StoredResult {
  const result: StoredResult = {
    runId,
    testSuite: row.test_suite,
    testCase: row.test_case,
    status: row.status,
    duration: Number(row.duration),
  };
  if (row.details !== null) result.details = JSON.parse(row.details);
  if (row.attachments !== null && row.attachments !== undefined)
    result.attachments = JSON.parse(row.attachments);
  if (row.quarantined !== null && Number(row.quarantined) === 1) result.quarantined = true;
  return result;
}

/** A result's stored columns after run_seq and position, in the INSERTs' order (write-sql.ts). */
export function resultColumns(result: ResultInput): SqlValue[] {
  return [
    result.testSuite,
    result.testCase,
    result.status,
    result.duration,
    result.details === undefined ? null : JSON.stringify(result.details),
    result.details?.attempts ?? null,
    result.attachments === undefined ? null : JSON.stringify(result.attachments),
    result.quarantined === true ? 1 : null,
  ];
}
