import { createHash } from 'node:crypto';
import type { SqlDatabase, SqlExecutor, SqlTransaction } from '../database/sql-database.js';

// A project's quarantined tests (docs/design/quarantine.md): one row per test in `quarantines`, in
// force while not lifted and until it expires; every change a row of `quarantine_changes`,
// never touched again. Writes run inside a write's transaction (SqlStore.write); reads on the
// database. The tables are migration 11's.

/** A test's key: the hex SHA-256 of the JSON array [testSuite, testCase], as reporters compute it. */
export function testKey(testSuite: string, testCase: string): string {
  return createHash('sha256')
    .update(JSON.stringify([testSuite, testCase]), 'utf8')
    .digest('hex');
}

/** In force and not expired; in force but past its expiry (it quarantines nothing); lifted. */
export type QuarantineState = 'active' | 'expired' | 'lifted';

export interface Quarantine {
  project: string;
  testSuite: string;
  testCase: string;
  /** testKey(testSuite, testCase). */
  key: string;
  reason: string;
  /** Who sees to it (free text); absent when nobody was named. */
  owner?: string;
  /** When it was quarantined (this time: a test lifted and quarantined again starts anew). */
  since: string;
  /** Who quarantined it. */
  by: string;
  expiresAt: string;
  /** When it was lifted, if it was. */
  liftedAt?: string;
  state: QuarantineState;
}

export type ChangeAction = 'quarantined' | 'changed' | 'lifted';
/** Where a change was made: the write API (the CLI, a script) or a page, signed in. */
export type ChangeVia = 'api' | 'page';

export interface QuarantineChange {
  project: string;
  testSuite: string;
  testCase: string;
  key: string;
  /** 1 for the test's first change in its project, then 2, 3… */
  number: number;
  action: ChangeAction;
  reason: string;
  owner?: string;
  /** The expiry it set (not for a lift). */
  expiresAt?: string;
  by: string;
  via: ChangeVia;
  at: string;
}

export interface QuarantineInput {
  project: string;
  testSuite: string;
  testCase: string;
  reason: string;
  owner: string | undefined;
  expiresAt: string;
  by: string;
  via: ChangeVia;
  at: string;
}

export interface LiftInput {
  project: string;
  testSuite: string;
  testCase: string;
  reason: string;
  by: string;
  via: ChangeVia;
  at: string;
}

/** How many tests one project may hold in force (active or expired, not lifted) at once. */
export const MAX_QUARANTINED = 1_000;

/** A project already holds MAX_QUARANTINED tests in force: thrown inside the write, which rolls back. */
export class TooManyQuarantined extends Error {}

interface QuarantineRow {
  [column: string]: string | number | null;
  project: string;
  test_key: string;
  test_suite: string;
  test_case: string;
  reason: string;
  owner: string | null;
  since: string;
  quarantined_by: string;
  expires_at: string;
  lifted_at: string | null;
}

interface ChangeRow {
  [column: string]: string | number | null;
  project: string;
  test_key: string;
  number: number | string;
  test_suite: string;
  test_case: string;
  action: string;
  reason: string;
  owner: string | null;
  expires_at: string | null;
  changed_by: string;
  via: string;
  changed_at: string;
}

const QUARANTINE_COLUMNS =
  'project, test_key, test_suite, test_case, reason, owner, since, quarantined_by, expires_at, lifted_at';
const CHANGE_COLUMNS =
  'project, test_key, number, test_suite, test_case, action, reason, owner, expires_at, changed_by, via, changed_at';

export function stateAt(row: Pick<QuarantineRow, 'lifted_at' | 'expires_at'>, now: string): QuarantineState {
  if (row.lifted_at !== null) return 'lifted';
  return row.expires_at > now ? 'active' : 'expired';
}

function quarantineOfRow(row: QuarantineRow, now: string): Quarantine {
  return {
    project: row.project,
    testSuite: row.test_suite,
    testCase: row.test_case,
    key: row.test_key,
    reason: row.reason,
    ...(row.owner === null ? {} : { owner: row.owner }),
    since: row.since,
    by: row.quarantined_by,
    expiresAt: row.expires_at,
    ...(row.lifted_at === null ? {} : { liftedAt: row.lifted_at }),
    state: stateAt(row, now),
  };
}

function changeOfRow(row: ChangeRow): QuarantineChange {
  return {
    project: row.project,
    testSuite: row.test_suite,
    testCase: row.test_case,
    key: row.test_key,
    number: Number(row.number),
    action: row.action as ChangeAction,
    reason: row.reason,
    ...(row.owner === null ? {} : { owner: row.owner }),
    ...(row.expires_at === null ? {} : { expiresAt: row.expires_at }),
    by: row.changed_by,
    via: row.via as ChangeVia,
    at: row.changed_at,
  };
}

/**
 * The test's row, locked for the rest of the transaction on PostgreSQL (two changes of one
 * test take turns; SQLite has one writer).
 */
async function lockedRow(
  tx: SqlTransaction,
  dialect: SqlDatabase['dialect'],
  project: string,
  key: string,
): Promise<QuarantineRow | undefined> {
  const lock = dialect === 'postgres' ? ' FOR UPDATE' : '';
  const rows = await tx.query<QuarantineRow>(
    `SELECT ${QUARANTINE_COLUMNS} FROM quarantines WHERE project = $1 AND test_key = $2${lock}`,
    [project, key],
  );
  return rows[0];
}

async function recordChange(
  tx: SqlTransaction,
  change: Omit<QuarantineChange, 'number'>,
): Promise<QuarantineChange> {
  const [last] = await tx.query<{ number: number | string | null }>(
    'SELECT max(number) AS number FROM quarantine_changes WHERE project = $1 AND test_key = $2',
    [change.project, change.key],
  );
  const number = Number(last?.number ?? 0) + 1;
  await tx.query(
    `INSERT INTO quarantine_changes (${CHANGE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      change.project,
      change.key,
      number,
      change.testSuite,
      change.testCase,
      change.action,
      change.reason,
      change.owner ?? null,
      change.expiresAt ?? null,
      change.by,
      change.via,
      change.at,
    ],
  );
  return { ...change, number };
}

/**
 * Quarantines a test, or changes the quarantine in force (its reason, owner, expiry: `since`
 * and who quarantined it stay). A test lifted before is quarantined anew. Throws
 * TooManyQuarantined when a new one would pass MAX_QUARANTINED in its project.
 */
export async function setQuarantine(
  tx: SqlTransaction,
  dialect: SqlDatabase['dialect'],
  input: QuarantineInput,
): Promise<{ quarantine: Quarantine; change: QuarantineChange }> {
  const key = testKey(input.testSuite, input.testCase);
  const existing = await lockedRow(tx, dialect, input.project, key);
  const inForce = existing !== undefined && existing.lifted_at === null;
  if (!inForce) {
    const [counted] = await tx.query<{ n: number | string }>(
      'SELECT count(*) AS n FROM quarantines WHERE project = $1 AND lifted_at IS NULL',
      [input.project],
    );
    if (Number(counted?.n ?? 0) >= MAX_QUARANTINED) throw new TooManyQuarantined();
  }
  const since = inForce ? existing.since : input.at;
  const by = inForce ? existing.quarantined_by : input.by;
  const values = [
    input.project,
    key,
    input.testSuite,
    input.testCase,
    input.reason,
    input.owner ?? null,
    since,
    by,
    input.expiresAt,
  ];
  if (existing) {
    await tx.query(
      `UPDATE quarantines SET test_suite = $3, test_case = $4, reason = $5, owner = $6, since = $7,
         quarantined_by = $8, expires_at = $9, lifted_at = NULL WHERE project = $1 AND test_key = $2`,
      values,
    );
  } else {
    await tx.query(
      `INSERT INTO quarantines (${QUARANTINE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL)`,
      values,
    );
  }
  const change = await recordChange(tx, {
    project: input.project,
    testSuite: input.testSuite,
    testCase: input.testCase,
    key,
    action: inForce ? 'changed' : 'quarantined',
    reason: input.reason,
    ...(input.owner === undefined ? {} : { owner: input.owner }),
    expiresAt: input.expiresAt,
    by: input.by,
    via: input.via,
    at: input.at,
  });
  const row: QuarantineRow = {
    project: input.project,
    test_key: key,
    test_suite: input.testSuite,
    test_case: input.testCase,
    reason: input.reason,
    owner: input.owner ?? null,
    since,
    quarantined_by: by,
    expires_at: input.expiresAt,
    lifted_at: null,
  };
  return { quarantine: quarantineOfRow(row, input.at), change };
}

/** Lifts the test's quarantine in force (expired or not); undefined when it has none. */
export async function liftQuarantine(
  tx: SqlTransaction,
  dialect: SqlDatabase['dialect'],
  input: LiftInput,
): Promise<{ quarantine: Quarantine; change: QuarantineChange } | undefined> {
  const key = testKey(input.testSuite, input.testCase);
  const existing = await lockedRow(tx, dialect, input.project, key);
  if (!existing || existing.lifted_at !== null) return undefined;
  await tx.query('UPDATE quarantines SET lifted_at = $3 WHERE project = $1 AND test_key = $2', [
    input.project,
    key,
    input.at,
  ]);
  const change = await recordChange(tx, {
    project: input.project,
    testSuite: existing.test_suite,
    testCase: existing.test_case,
    key,
    action: 'lifted',
    reason: input.reason,
    by: input.by,
    via: input.via,
    at: input.at,
  });
  return { quarantine: quarantineOfRow({ ...existing, lifted_at: input.at }, input.at), change };
}

/** The project's quarantines in force (active, then expired ones nobody lifted), oldest first. */
export async function quarantinesOf(db: SqlExecutor, project: string, now: string): Promise<Quarantine[]> {
  const rows = await db.query<QuarantineRow>(
    `SELECT ${QUARANTINE_COLUMNS} FROM quarantines WHERE project = $1 AND lifted_at IS NULL
     ORDER BY since, test_suite, test_case LIMIT $2`,
    [project, MAX_QUARANTINED],
  );
  return rows.map((row) => quarantineOfRow(row, now));
}

/** One test's quarantine, in whatever state; undefined when it was never quarantined in the project. */
export async function quarantineOf(
  db: SqlExecutor,
  project: string,
  testSuite: string,
  testCase: string,
  now: string,
): Promise<Quarantine | undefined> {
  const rows = await db.query<QuarantineRow>(
    `SELECT ${QUARANTINE_COLUMNS} FROM quarantines WHERE project = $1 AND test_key = $2`,
    [project, testKey(testSuite, testCase)],
  );
  return rows[0] && quarantineOfRow(rows[0], now);
}

/**
 * A project's changes, newest first, `limit` from `offset`; of one test when `key` is given.
 * One more than asked is read, so the caller knows whether there are more.
 */
export async function changesOf(
  db: SqlExecutor,
  project: string,
  { key, limit, offset = 0 }: { key?: string | undefined; limit: number; offset?: number },
): Promise<{ changes: QuarantineChange[]; more: boolean }> {
  const params: (string | number)[] = [project];
  let where = 'project = $1';
  if (key !== undefined) {
    params.push(key);
    where += ' AND test_key = $2';
  }
  params.push(limit + 1, offset);
  const rows = await db.query<ChangeRow>(
    `SELECT ${CHANGE_COLUMNS} FROM quarantine_changes WHERE ${where}
     ORDER BY changed_at DESC, test_key, number DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { changes: rows.slice(0, limit).map(changeOfRow), more: rows.length > limit };
}

/** Tests quarantined in other projects a run's list names, at most. */
const MAX_ELSEWHERE = 1_000;

export interface RunQuarantineList {
  tests: { key: string; expiresAt: string }[];
  expired: { key: string; expiredAt: string }[];
  elsewhere: { key: string; project: string }[];
}

/**
 * What a reporter of the run matches its failures with (`GET /api/v1/runs/{id}/quarantine`):
 * the run's project's tests in force, by key, the active ones with their expiry and the
 * expired ones with theirs, and tests quarantined now in other projects (at most
 * MAX_ELSEWHERE): a failure of one of those fails the build, and the line says why.
 */
export async function runQuarantineList(
  db: SqlExecutor,
  project: string,
  now: string,
): Promise<RunQuarantineList> {
  const rows = await db.query<{ test_key: string; expires_at: string }>(
    'SELECT test_key, expires_at FROM quarantines WHERE project = $1 AND lifted_at IS NULL ORDER BY test_key LIMIT $2',
    [project, MAX_QUARANTINED],
  );
  const tests: RunQuarantineList['tests'] = [];
  const expired: RunQuarantineList['expired'] = [];
  for (const row of rows) {
    if (row.expires_at > now) tests.push({ key: row.test_key, expiresAt: row.expires_at });
    else expired.push({ key: row.test_key, expiredAt: row.expires_at });
  }
  const others = await db.query<{ test_key: string; project: string }>(
    `SELECT test_key, project FROM quarantines WHERE project <> $1 AND lifted_at IS NULL AND expires_at > $2
     ORDER BY test_key, project LIMIT $3`,
    [project, now, MAX_ELSEWHERE],
  );
  const elsewhere = others.map((row) => ({ key: row.test_key, project: row.project }));
  return { tests, expired, elsewhere };
}

/** Projects with tests in force, and how many each holds, by name. */
export async function quarantiningProjects(
  db: SqlExecutor,
  limit: number,
): Promise<{ project: string; count: number }[]> {
  const rows = await db.query<{ project: string; n: number | string }>(
    'SELECT project, count(*) AS n FROM quarantines WHERE lifted_at IS NULL GROUP BY project ORDER BY project LIMIT $1',
    [limit],
  );
  return rows.map((row) => ({ project: row.project, count: Number(row.n) }));
}
