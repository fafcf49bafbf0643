import type { Shard } from './ci-tags.js';

/** The most shards a plan splits files into: CI providers run at most a few hundred jobs in parallel. */
export const MAX_SHARDS = 1_000;

/**
 * `2/4` as `{ index: 2, count: 4 }`, or why it is not one: the form `testrun plan --shard`,
 * `TESTRUN_SHARD` and the runners' own `--shard` take (the index from 1).
 */
export function parseShard(text: string): Shard | { problem: string } {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) return { problem: `must be <index>/<count>, e.g. 2/4, got ${JSON.stringify(text)}` };
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) {
    return { problem: `must have a count from 1 to ${MAX_SHARDS}, got ${JSON.stringify(text)}` };
  }
  if (index < 1 || index > count) {
    return { problem: `must have an index from 1 to its count, got ${JSON.stringify(text)}` };
  }
  return { index, count };
}

/** `2/4`. */
export function formatShard({ index, count }: Shard): string {
  return `${index}/${count}`;
}
