import { randomUUID } from 'node:crypto';
import { readJson } from '../delivery/create-run.js';
import type { Deadline } from '../delivery/deadline.js';
import { type RetryPolicy, sendWithRetries } from '../delivery/send-with-retries.js';
import { excerptOf } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { inert } from '../inert.js';

// The plan operation (docs/design/shard-plans.md#the-protocol): POST {base}/api/v1/plans with the
// files every shard was given; the service answers the plan it stored for the key, the same
// to every shard. A service without the operation answers 404 (or 405, 501): it makes no
// plans, and every shard splits the files by size instead.

export const PLANS_PATH = '/api/v1/plans';

export interface PlanRequest {
  /** What the shards of one build share (plan-key.ts). */
  key: string;
  project: string;
  shardCount: number;
  /** The shard asking, from 1: the answer lists its files alone. Without it, every shard's. */
  shard?: number | undefined;
  /** Every file every shard was given, named as the reporters name them (testSuite), with its size in bytes. */
  files: { file: string; size: number }[];
  /** The branch being built: its runs' durations come first. */
  branch?: string | undefined;
  /** Then the default branch's. */
  defaultBranch?: string | undefined;
}

/** Where a file's weight came from. */
export type WeightSource = 'branch' | 'default-branch' | 'project' | 'unseen' | 'size';

/** One file of a plan: its shard and weight. */
export interface PlannedFile {
  file: string;
  shard: number;
  weight: number;
  from: WeightSource;
}

/** A plan as the service answers it: weights in milliseconds from durations, or in bytes when it had none. */
export interface ServicePlan {
  key: string;
  project: string;
  shardCount: number;
  createdAt: string;
  basis: 'durations' | 'sizes';
  /** Every shard's total weight and file count, by index from 1. */
  shards: { shard: number; weight: number; fileCount: number }[];
  /** The asking shard's files (every file when no shard asked), heaviest first. */
  files: PlannedFile[];
  /** The plan was made before this request (200), rather than by it (201). */
  stored: boolean;
}

export type PlanAnswer =
  | { kind: 'plan'; plan: ServicePlan }
  /** The key's plan was made for other files (or another shard count): 409, in the service's words. */
  | { kind: 'differs'; message: string }
  /** The service has no plan operation. */
  | { kind: 'no-plans'; reason: string }
  /** No plan: unreachable, refused, or an answer that is no plan. */
  | { kind: 'failed'; reason: string };

/** Statuses that mean "no such operation here", as a service that knows only the spec answers. */
const NO_OPERATION: ReadonlySet<number> = new Set([404, 405, 501]);
/** 409 is the service's "these are not the files of the stored plan", not a retry hint. */
const FINAL: ReadonlySet<number> = new Set([409]);

export async function requestPlan(
  http: HttpClient,
  request: PlanRequest,
  policy: RetryPolicy,
  deadline: Deadline,
): Promise<PlanAnswer> {
  const outcome = await sendWithRetries(
    http,
    PLANS_PATH,
    JSON.stringify(request),
    randomUUID(),
    policy,
    deadline,
    { final: FINAL },
  );
  if (outcome.kind === 'ok') {
    const plan = readPlan(outcome.response.body, request);
    if (typeof plan === 'string')
      return { kind: 'failed', reason: `the service's answer is no plan: ${plan}` };
    return { kind: 'plan', plan: { ...plan, stored: outcome.response.status === 200 } };
  }
  const { error } = outcome;
  const status = 'status' in error ? (error.status as number) : undefined;
  if (status === 409) return { kind: 'differs', message: serviceMessage(error) };
  if (status !== undefined && NO_OPERATION.has(status)) {
    return {
      kind: 'no-plans',
      reason: `the service makes no shard plans (${PLANS_PATH} answered ${status})`,
    };
  }
  if (outcome.kind === 'auth')
    return { kind: 'failed', reason: `the service refused TESTRUN_API_KEY (${status})` };
  return { kind: 'failed', reason: `no plan from the service: ${error.message}` };
}

/** The `message` of the service's error body (`{ error: { message } }`), else what the error says. */
function serviceMessage(error: Error & { body?: string }): string {
  const body = readJson(error.body ?? '');
  const message = (body as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? inert(message) : error.message;
}

/**
 * The answer as a plan, or what is wrong with it. A plan whose shards do not hold every file
 * given, or that lists the asking shard's files other than its count says, is refused:
 * running it could skip or repeat a file, where splitting by size runs each once.
 */
export function readPlan(text: string, request: PlanRequest): Omit<ServicePlan, 'stored'> | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${excerptOf(text)}`;
  }
  const plan = body as Partial<ServicePlan> | null;
  if (
    plan === null ||
    typeof plan !== 'object' ||
    !Array.isArray(plan.shards) ||
    !Array.isArray(plan.files)
  ) {
    return 'no shards and files in it';
  }
  if (plan.basis !== 'durations' && plan.basis !== 'sizes') return `basis ${JSON.stringify(plan.basis)}`;
  if (plan.shards.length !== request.shardCount) {
    return `${plan.shards.length} shards where ${request.shardCount} were asked for`;
  }
  let fileCount = 0;
  for (const [index, share] of plan.shards.entries()) {
    if (share?.shard !== index + 1 || !isCount(share.fileCount) || typeof share.weight !== 'number') {
      return `shard ${index + 1} is malformed`;
    }
    fileCount += share.fileCount;
  }
  if (fileCount !== request.files.length) {
    return `its shards hold ${fileCount} files where ${request.files.length} were given`;
  }
  const given = new Set(request.files.map(({ file }) => file));
  const listed = new Set<string>();
  for (const planned of plan.files) {
    const { file, shard } = planned ?? {};
    if (typeof file !== 'string' || !given.has(file))
      return `it places a file not given: ${JSON.stringify(file)}`;
    if (listed.has(file)) return `it places ${JSON.stringify(file)} twice`;
    if (request.shard !== undefined && shard !== request.shard) {
      return `it lists ${JSON.stringify(file)} of shard ${shard} for shard ${request.shard}`;
    }
    listed.add(file);
  }
  const expected = request.shard === undefined ? fileCount : plan.shards[request.shard - 1]!.fileCount;
  if (listed.size !== expected) return `it lists ${listed.size} files where its shard holds ${expected}`;
  return {
    key: String(plan.key ?? request.key),
    project: String(plan.project ?? request.project),
    shardCount: request.shardCount,
    createdAt: String(plan.createdAt ?? ''),
    basis: plan.basis,
    shards: plan.shards,
    files: plan.files.map(({ file, shard, weight, from }) => ({
      file,
      shard,
      weight: typeof weight === 'number' ? weight : 0,
      from,
    })),
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
