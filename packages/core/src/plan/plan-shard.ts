import type { Deadline } from '../delivery/deadline.js';
import type { RetryPolicy } from '../delivery/send-with-retries.js';
import type { HttpClient } from '../http/client.js';
import type { Shard } from '../options/ci-tags.js';
import { formatShard } from '../options/shard-spec.js';
import { countOf, formatMs } from '../output/summary.js';
import type { BuildBranches } from './build-branches.js';
import { placeFiles } from './place-files.js';
import { type PlannedFile, type PlanRequest, requestPlan, type ServicePlan } from './plan-request.js';

/** A file to plan: its name as the reporters name it (testSuite), and its size in bytes. */
export interface FileToPlan {
  file: string;
  size: number;
}

/** Where a plan can come from: the service, or why not. */
export type PlanSource =
  | { http: HttpClient; policy: RetryPolicy; deadline: Deadline }
  /** Why the service is not asked (no key, no plan key…): every shard then splits by size. */
  | { unavailable: string };

export interface ShardPlanInput {
  /** Every file every shard was given. */
  files: readonly FileToPlan[];
  shard: Shard;
  project: string;
  key: string;
  branches: BuildBranches;
  source: PlanSource;
}

/** Every shard's total weight and file count. */
export interface ShardTotals {
  shard: number;
  weight: number;
  fileCount: number;
}

export type ShardPlan =
  /** The service's plan for the key, the same for every shard of it. */
  | { kind: 'service'; plan: ServicePlan; files: PlannedFile[] }
  /** Split by size here, the same in every shard given the same files: `reason` says why. */
  | { kind: 'sizes'; reason: string; files: PlannedFile[]; shards: ShardTotals[] }
  /** The key's plan holds other files (or another shard count): this shard must not guess. */
  | { kind: 'differs'; message: string };

/**
 * This shard's files: the service's plan for the key where it makes one, else the split by
 * size that every shard computes alike from the same files. Never throws.
 */
export async function planShard(input: ShardPlanInput): Promise<ShardPlan> {
  const { files, shard, source } = input;
  if ('unavailable' in source) return splitBySize(files, shard, source.unavailable);
  const request: PlanRequest = {
    key: input.key,
    project: input.project,
    shardCount: shard.count,
    shard: shard.index,
    files: files.map(({ file, size }) => ({ file, size })),
    branch: input.branches.branch,
    defaultBranch: input.branches.defaultBranch,
  };
  const answer = await requestPlan(source.http, request, source.policy, source.deadline).catch(
    (error: unknown) => ({
      kind: 'failed' as const,
      reason: `no plan from the service: ${(error as Error).message}`,
    }),
  );
  switch (answer.kind) {
    case 'plan':
      return { kind: 'service', plan: answer.plan, files: answer.plan.files };
    case 'differs':
      return { kind: 'differs', message: answer.message };
    default:
      return splitBySize(files, shard, answer.reason);
  }
}

/**
 * The split every shard computes alike when the service makes no plan: by file size, the
 * largest first onto the least loaded shard, ties by name. An empty file weighs a byte, so
 * that empty files spread rather than pile onto one shard.
 */
export function splitBySize(
  files: readonly FileToPlan[],
  shard: Shard,
  reason: string,
): Extract<ShardPlan, { kind: 'sizes' }> {
  const shares = placeFiles(
    files.map(({ file, size }) => ({ file, weight: Math.max(1, size) })),
    shard.count,
  );
  const mine = shares[shard.index - 1]!;
  const weightOf = new Map(files.map(({ file, size }) => [file, Math.max(1, size)]));
  return {
    kind: 'sizes',
    reason,
    files: mine.files.map((file) => ({
      file,
      shard: shard.index,
      weight: weightOf.get(file)!,
      from: 'size',
    })),
    shards: shares.map((share, index) => ({
      shard: index + 1,
      weight: share.weight,
      fileCount: share.files.length,
    })),
  };
}

/** The one line a shard prints about its plan (never for `differs`, which is an error). */
export function describePlan(
  plan: Exclude<ShardPlan, { kind: 'differs' }>,
  shard: Shard,
  total: number,
): string {
  const mine = `shard ${formatShard(shard)} runs ${countOf(plan.files.length, 'file')} of ${formatCountOnly(total)}`;
  const empty =
    plan.files.length === 0 && total > 0
      ? `; none is left for this shard (${countOf(total, 'file')} in ${shard.count} shards): run nothing here`
      : '';
  if (plan.kind === 'sizes') {
    return `${plan.reason}: split by file size, as every shard that cannot have the service's plan does; ${mine}${empty}`;
  }
  const { plan: stored } = plan;
  if (stored.basis === 'sizes') {
    return `the service has no durations of these files yet: plan "${stored.key}" splits them by size, the same for every shard; ${mine}${empty}`;
  }
  const planned = stored.shards[shard.index - 1]?.weight ?? 0;
  const all = stored.shards.reduce((sum, share) => sum + share.weight, 0);
  const heaviest = Math.max(...stored.shards.map((share) => share.weight));
  const unseen = plan.files.filter((file) => file.from === 'unseen').length;
  const newFiles = unseen > 0 ? `, ${countOf(unseen, 'file')} new to it weighed at the median` : '';
  return `plan "${stored.key}" from the service's durations: ${mine}, ~${formatMs(planned)} of tests (the longest shard ~${formatMs(heaviest)}, all ${formatMs(all)})${newFiles}${empty}`;
}

function formatCountOnly(count: number): string {
  return countOf(count, 'file').replace(/ files?$/, '');
}
