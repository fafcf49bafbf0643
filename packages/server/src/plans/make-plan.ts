import { createHash } from 'node:crypto';
import type { FileDuration } from './file-durations.js';
import { compareNames, median, placeFiles } from './place-files.js';

/** What a plan request asks for (POST /api/v1/plans). */
export interface PlanRequestBody {
  key: string;
  project: string;
  shardCount: number;
  /** The asking shard: the answer lists its files alone. */
  shard?: number;
  files: { file: string; size: number }[];
  branch?: string;
  defaultBranch?: string;
}

export type WeightSource = FileDuration['from'] | 'unseen' | 'size';

export interface PlannedFile {
  file: string;
  shard: number;
  weight: number;
  from: WeightSource;
}

export interface ShardTotals {
  shard: number;
  weight: number;
  fileCount: number;
}

/** A plan as stored and answered. */
export interface Plan {
  key: string;
  project: string;
  shardCount: number;
  createdAt: string;
  /** `durations`: weights in milliseconds; `sizes`: no file had a duration, weights in bytes. */
  basis: 'durations' | 'sizes';
  shards: ShardTotals[];
  /** Every file, by shard, heaviest first within it. */
  files: PlannedFile[];
  /** What tells another request's files from these at once. */
  filesHash: string;
}

/**
 * The plan for a request's files: each file's duration where the store has one, a file never
 * seen at the median of those seen (a new file is no heavier or lighter than usual), and
 * when none was seen their sizes, as a client splits them without the service. Every weight
 * is at least 1, so that files that took no time spread instead of piling onto one shard.
 */
export function makePlan(
  request: PlanRequestBody,
  durations: ReadonlyMap<string, FileDuration>,
  createdAt: string,
): Plan {
  const basis = durations.size > 0 ? 'durations' : 'sizes';
  const unseen = median([...durations.values()].map(({ weight }) => weight)) ?? 0;
  const weighed = request.files.map(({ file, size }) => {
    const known = durations.get(file);
    if (basis === 'sizes') return { file, weight: Math.max(1, size), from: 'size' as const };
    return known
      ? { file, weight: Math.max(1, known.weight), from: known.from }
      : { file, weight: Math.max(1, unseen), from: 'unseen' as const };
  });
  const byFile = new Map(weighed.map((entry) => [entry.file, entry]));
  const shares = placeFiles(weighed, request.shardCount);
  return {
    key: request.key,
    project: request.project,
    shardCount: request.shardCount,
    createdAt,
    basis,
    shards: shares.map((share, index) => ({
      shard: index + 1,
      weight: share.weight,
      fileCount: share.files.length,
    })),
    files: shares.flatMap((share, index) =>
      share.files.map((file) => {
        const { weight, from } = byFile.get(file)!;
        return { file, shard: index + 1, weight, from };
      }),
    ),
    filesHash: filesHash(request.files.map(({ file }) => file)),
  };
}

/** The same for the same set of names, in any order. */
export function filesHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort(compareNames)) hash.update(file).update('\0');
  return hash.digest('hex');
}

/**
 * Why a request's files are not the stored plan's: the names each lacks, a few of each. The
 * shards of one plan must be given the same files; a shard that was not would otherwise skip
 * or repeat some.
 */
export function filesDifference(planned: readonly string[], given: readonly string[]): string {
  const inPlan = new Set(planned);
  const inRequest = new Set(given);
  const missing = planned.filter((file) => !inRequest.has(file)).sort(compareNames);
  const added = given.filter((file) => !inPlan.has(file)).sort(compareNames);
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`lacks ${missing.length} of the plan's files (${few(missing)})`);
  if (added.length > 0) parts.push(`has ${added.length} the plan does not (${few(added)})`);
  return parts.join(' and ');
}

function few(names: readonly string[]): string {
  const shown = names
    .slice(0, 5)
    .map((name) => JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name));
  return names.length > 5 ? `${shown.join(', ')} and ${names.length - 5} more` : shown.join(', ');
}
