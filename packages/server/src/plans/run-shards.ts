import type { SqlExecutor } from '../database/sql-database.js';
import type { ResultInput } from '../ledger/store.js';

// Which shard of a build a run's results came from
// (docs/design/shard-plans.md#which-shard-results-came-from): a sharded reporter sends
// `Testrun-Shard: <i>/<n>` and `Testrun-Plan-Key: <key>` with its batches, headers rather than
// fields, so the spec's body is untouched. Kept per run and shard: how many results, their summed
// duration (the actual time beside the plan's) and when the last came.

/** The most shards a run's page tells apart, as a plan splits into at most. */
const MAX_SHARDS = 1_000;

export interface ShardOfBatch {
  index: number;
  count: number;
  planKey: string | undefined;
}

/** The shard a batch's headers name; undefined when they name none or are not its form (never refused: the spec's operation must not fail over a header). */
export function shardOfBatch(
  headers: Record<string, string | string[] | undefined>,
): ShardOfBatch | undefined {
  const shard = headers['testrun-shard'];
  const match = typeof shard === 'string' ? /^\s*(\d{1,4})\/(\d{1,4})\s*$/.exec(shard) : null;
  if (!match) return undefined;
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (index < 1 || index > count || count > MAX_SHARDS) return undefined;
  const key = headers['testrun-plan-key'];
  const planKey = typeof key === 'string' && /^[\x21-\x7e][\x20-\x7e]{0,199}$/.test(key) ? key : undefined;
  return { index, count, planKey };
}

/** Adds a batch to its shard's counts, in the batch's own transaction (a replayed batch adds nothing). */
export async function addShardResults(
  tx: SqlExecutor,
  runId: string,
  shard: ShardOfBatch,
  results: readonly ResultInput[],
  receivedAt: string,
): Promise<void> {
  let duration = 0;
  for (const result of results) duration += result.duration;
  await tx.query(
    `INSERT INTO run_shards (run_seq, shard_count, shard_index, plan_key, results, duration, last_received_at)
     SELECT seq, $2, $3, $4, $5, $6, $7 FROM runs WHERE id = $1
     ON CONFLICT (run_seq, shard_count, shard_index) DO UPDATE SET
       results = run_shards.results + excluded.results,
       duration = run_shards.duration + excluded.duration,
       last_received_at = excluded.last_received_at,
       plan_key = COALESCE(excluded.plan_key, run_shards.plan_key)`,
    [runId, shard.count, shard.index, shard.planKey ?? null, results.length, duration, receivedAt],
  );
}

/** One shard of a run, as its page shows it. */
export interface RunShard {
  index: number;
  count: number;
  planKey: string | undefined;
  results: number;
  /** The sum of its results' durations, in milliseconds. */
  duration: number;
  lastReceivedAt: string;
}

export async function runShards(db: SqlExecutor, runId: string): Promise<RunShard[]> {
  const rows = await db.query<{
    shard_count: number | string;
    shard_index: number | string;
    plan_key: string | null;
    results: number | string;
    duration: number | string;
    last_received_at: string;
  }>(
    `SELECT shard_count, shard_index, plan_key, results, duration, last_received_at FROM run_shards
     WHERE run_seq = (SELECT seq FROM runs WHERE id = $1) ORDER BY shard_count, shard_index`,
    [runId],
  );
  return rows.map((row) => ({
    index: Number(row.shard_index),
    count: Number(row.shard_count),
    planKey: row.plan_key ?? undefined,
    results: Number(row.results),
    duration: Number(row.duration),
    lastReceivedAt: row.last_received_at,
  }));
}
