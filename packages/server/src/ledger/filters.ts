import type { SqlValue } from '../database/sql-database.js';
import { type RunState, stateCondition } from './run-state.js';

// The WHERE clauses the pages' filters become (page-reads.ts): each a list of conditions and
// the parameters they bind, numbered in order, that a read can add its own to.

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

/** What tells a running run from an abandoned one (run-state.ts). */
export interface StateClock {
  now: number;
  abandonedAfterMs: number;
}

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

export function runsWhere(filter: RunsFilter, states: StateClock): { where: string[]; params: SqlValue[] } {
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
export function countRunsSql(filter: RunsFilter, where: readonly string[]): string {
  const given = (Object.keys(filter) as (keyof RunsFilter)[]).filter((key) => filter[key] !== undefined);
  if (given.length === 1 && given[0] === 'tag') return 'SELECT count(*) AS n FROM run_tags WHERE tag = $1';
  if (given.length === 1 && given[0] === 'branch') {
    // A run may carry two branch tags that one pattern matches: count it once.
    return "SELECT count(DISTINCT run_seq) AS n FROM run_tags WHERE tag LIKE $1 ESCAPE '\\'";
  }
  return `SELECT count(*) AS n FROM runs ${whereClause(where)}`;
}

export function resultsWhere(runId: string, filter: ResultsFilter): { where: string[]; params: SqlValue[] } {
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

export function whereClause(where: readonly string[]): string {
  return where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`;
}

/** Text that LIKE matches as written: its own `%`, `_` and backslash escaped (the queries say `ESCAPE` backslash). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A branch name as a LIKE pattern: itself, with `*` matching any run of characters. */
function likePattern(text: string): string {
  return likeLiteral(text).replace(/\*/g, '%');
}
