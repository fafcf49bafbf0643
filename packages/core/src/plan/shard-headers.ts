import type { Shard } from '../options/ci-tags.js';
import { parseShard } from '../options/shard-spec.js';

/**
 * What a sharded reporter's requests say besides the spec's: which shard of the build its results
 * come from, and the plan key its shards share, so a service can show each shard's planned and
 * actual time on the run's page (docs/design/shard-plans.md#which-shard-results-came-from).
 * Headers, not fields: a service that knows nothing of them reads the spec's body as it always did.
 */
export function shardHeaders(shard: Shard, planKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'testrun-shard': `${shard.index}/${shard.count}` };
  if (planKey !== undefined) headers['testrun-plan-key'] = planKey;
  return headers;
}

/** The `shard` option (TESTRUN_SHARD), checked already by config.ts; undefined when unset. */
export function configuredShard(config: { shard?: string | undefined }): Shard | undefined {
  if (config.shard === undefined) return undefined;
  const shard = parseShard(config.shard);
  return 'problem' in shard ? undefined : shard;
}
