// `@testrun/core/plan`: shard plans, for `testrun plan` and the Vitest and Jest sequencers
// (docs/design/shard-plans.md#nothing-for-a-run-that-does-not-plan). An entry point of its own,
// bundled apart (scripts/bundle-core.mjs): every kilobyte of core's main bundle is parsed by every
// run, and a run that does not plan its shards loads none of this.

export { filesToPlan, type LocalFile } from './files-to-plan.js';
export { type PlanForShard, type PlanForShardInput, planForShard } from './plan-for-shard.js';
export type { PlannedFile, ServicePlan, WeightSource } from './plan-request.js';
export {
  describePlan,
  type FileToPlan,
  type ShardPlan,
  type ShardTotals,
  splitBySize,
} from './plan-shard.js';
