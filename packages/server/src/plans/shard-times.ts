import type { SqlExecutor } from '../database/sql-database.js';
import type { RunWithCounts } from '../ledger/store.js';
import { plannedShards } from './plan-store.js';
import { runShards } from './run-shards.js';

/** One shard of a run as its page shows it: what its plan gave it, and what it sent. */
export interface ShardTime {
  index: number;
  count: number;
  results: number;
  /** The sum of its results' durations, in milliseconds. */
  actualMs: number;
  /** The test time its plan gave it, in milliseconds; undefined without a plan from durations. */
  plannedMs: number | undefined;
  planKey: string | undefined;
  lastReceivedAt: string;
}

/** The run's shards, each beside its plan's time where the plan it names was made from durations. */
export async function shardTimes(
  db: SqlExecutor,
  run: Pick<RunWithCounts, 'id' | 'project'>,
): Promise<ShardTime[]> {
  const shards = await runShards(db, run.id);
  if (shards.length === 0) return [];
  const keys = new Map<string, { key: string; shardCount: number }>();
  for (const { planKey, count } of shards) {
    if (planKey !== undefined) keys.set(`${count}\0${planKey}`, { key: planKey, shardCount: count });
  }
  const plans = await plannedShards(db, run.project, [...keys.values()]);
  return shards.map((shard) => {
    const plan = shard.planKey === undefined ? undefined : plans.get(`${shard.count}\0${shard.planKey}`);
    const planned = plan?.basis === 'durations' ? plan.shards[shard.index - 1]?.weight : undefined;
    return {
      index: shard.index,
      count: shard.count,
      results: shard.results,
      actualMs: shard.duration,
      plannedMs: planned,
      planKey: plan ? shard.planKey : undefined,
      lastReceivedAt: shard.lastReceivedAt,
    };
  });
}
