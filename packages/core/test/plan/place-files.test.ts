import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareNames, median, placeFiles } from '../../src/plan/place-files.js';

// Longest first onto the least loaded shard: every file in exactly one shard, the same split
// from the same weights whatever their order, and the greedy rule's bound on the longest shard.

const weightedFiles = fc.uniqueArray(
  fc.record({
    file: fc.string({ minLength: 1, maxLength: 12 }),
    weight: fc.integer({ min: 0, max: 100_000 }),
  }),
  { selector: (entry) => entry.file, maxLength: 80 },
);

describe('placeFiles', () => {
  it('puts every file in exactly one shard, each shard weighing what its files weigh', () => {
    fc.assert(
      fc.property(weightedFiles, fc.integer({ min: 1, max: 12 }), (files, count) => {
        const shares = placeFiles(files, count);
        expect(shares).toHaveLength(count);
        expect(shares.flatMap((share) => share.files).sort(compareNames)).toEqual(
          files.map((entry) => entry.file).sort(compareNames),
        );
        const weightOf = new Map(files.map((entry) => [entry.file, entry.weight]));
        for (const share of shares) {
          expect(share.weight).toBe(share.files.reduce((sum, file) => sum + weightOf.get(file)!, 0));
        }
      }),
    );
  });

  it('splits the same weights the same way, in whatever order they come', () => {
    fc.assert(
      fc.property(weightedFiles, fc.integer({ min: 1, max: 8 }), fc.integer(), (files, count, seed) => {
        const shuffled = [...files].sort(
          (a, b) => ((hash(a.file) ^ seed) >>> 0) - ((hash(b.file) ^ seed) >>> 0),
        );
        expect(placeFiles(shuffled, count)).toEqual(placeFiles(files, count));
      }),
    );
  });

  it('keeps the longest shard within the heaviest file of an even share', () => {
    fc.assert(
      fc.property(weightedFiles, fc.integer({ min: 1, max: 12 }), (files, count) => {
        const shares = placeFiles(files, count);
        const total = files.reduce((sum, entry) => sum + entry.weight, 0);
        const heaviest = Math.max(0, ...files.map((entry) => entry.weight));
        expect(Math.max(...shares.map((share) => share.weight))).toBeLessThanOrEqual(
          total / count + heaviest,
        );
      }),
    );
  });

  it('places the heaviest first, each onto the least loaded shard, a tie to the lower shard and the lower name first', () => {
    const shares = placeFiles(
      [
        { file: 'c', weight: 5 },
        { file: 'a', weight: 10 },
        { file: 'b', weight: 5 },
        { file: 'd', weight: 3 },
        { file: 'e', weight: 3 },
      ],
      3,
    );
    expect(shares).toEqual([
      { files: ['a'], weight: 10 },
      { files: ['b', 'd'], weight: 8 },
      { files: ['c', 'e'], weight: 8 },
    ]);
  });

  it('leaves shards empty when there are fewer files than shards', () => {
    expect(placeFiles([{ file: 'a', weight: 1 }], 3)).toEqual([
      { files: ['a'], weight: 1 },
      { files: [], weight: 0 },
      { files: [], weight: 0 },
    ]);
  });

  it('places 20,000 files into 1,000 shards', () => {
    const files = Array.from({ length: 20_000 }, (_, i) => ({ file: `f${i}`, weight: (i * 7919) % 1000 }));
    const shares = placeFiles(files, 1_000);
    expect(shares.reduce((sum, share) => sum + share.files.length, 0)).toBe(20_000);
  });

  it('compares names by code unit, the same in every locale', () => {
    expect(['b', 'B', 'é', 'e', 'Z'].sort(compareNames)).toEqual(['B', 'Z', 'b', 'e', 'é']);
  });

  it('takes the median, the middle two averaged', () => {
    expect(median([])).toBeUndefined();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

function hash(text: string): number {
  let value = 2166136261;
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 16777619);
  return value;
}
