import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareNames } from '../../src/plan/place-files.js';
import type { ServicePlan } from '../../src/plan/plan-request.js';
import { describePlan, splitBySize } from '../../src/plan/plan-shard.js';

// The split by size is what every shard falls back to alike when the service makes no plan:
// computed by each shard alone from the files, it must still put every file in exactly one.

const files = fc.uniqueArray(
  fc.record({ file: fc.string({ minLength: 1, maxLength: 10 }), size: fc.integer({ min: 0, max: 50_000 }) }),
  { selector: (entry) => entry.file, maxLength: 60 },
);

describe('splitBySize', () => {
  it('gives the shards, each computing alone from the same files in any order, every file exactly once', () => {
    fc.assert(
      fc.property(files, fc.integer({ min: 1, max: 9 }), (given, count) => {
        const reversed = [...given].reverse();
        const shards = Array.from({ length: count }, (_, i) =>
          splitBySize(i % 2 === 0 ? given : reversed, { index: i + 1, count }, 'down'),
        );
        const placed = shards.flatMap((plan) => plan.files.map((file) => file.file));
        expect(placed.sort(compareNames)).toEqual(given.map((entry) => entry.file).sort(compareNames));
        for (const plan of shards)
          expect(plan).toMatchObject({ kind: 'sizes', reason: 'down', shards: shards[0]!.shards });
      }),
    );
  });

  it('weighs an empty file a byte, so that empty files spread over the shards', () => {
    const empty = ['a', 'b', 'c', 'd'].map((file) => ({ file, size: 0 }));
    const counts = [1, 2].map((index) => splitBySize(empty, { index, count: 2 }, 'down').files.length);
    expect(counts).toEqual([2, 2]);
  });
});

describe('describePlan', () => {
  const servicePlan = (basis: ServicePlan['basis']): ServicePlan => ({
    key: 'github:1:o/r:test',
    project: 'shop',
    shardCount: 2,
    createdAt: '2026-01-01T00:00:00.000Z',
    basis,
    shards: [
      { shard: 1, weight: 62_000, fileCount: 2 },
      { shard: 2, weight: 58_000, fileCount: 1 },
    ],
    files: [
      { file: 'a', shard: 1, weight: 60_000, from: 'branch' },
      { file: 'b', shard: 1, weight: 2_000, from: 'unseen' },
    ],
    stored: true,
  });

  it("says a plan from the service's durations: the shard's files and time beside the longest shard's", () => {
    const plan = servicePlan('durations');
    expect(describePlan({ kind: 'service', plan, files: plan.files }, { index: 1, count: 2 }, 3)).toBe(
      'plan "github:1:o/r:test" from the service\'s durations: shard 1/2 runs 2 files of 3, ~62 s of tests (the longest shard ~62 s, all 120 s), 1 file new to it weighed at the median',
    );
  });

  it('says when the service had no durations yet and split by size', () => {
    const plan = servicePlan('sizes');
    expect(describePlan({ kind: 'service', plan, files: plan.files }, { index: 1, count: 2 }, 3)).toBe(
      'the service has no durations of these files yet: plan "github:1:o/r:test" splits them by size, the same for every shard; shard 1/2 runs 2 files of 3',
    );
  });

  it('says why a shard split by size alone, and that a shard left without files runs nothing', () => {
    const plan = splitBySize([{ file: 'a', size: 10 }], { index: 2, count: 2 }, 'TESTRUN_API_KEY is not set');
    expect(describePlan(plan, { index: 2, count: 2 }, 1)).toBe(
      "TESTRUN_API_KEY is not set: split by file size, as every shard that cannot have the service's plan does; shard 2/2 runs 0 files of 1; none is left for this shard (1 file in 2 shards): run nothing here",
    );
  });
});
