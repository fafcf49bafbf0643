// Longest first onto the least loaded shard (docs/design/shard-plans.md#the-rule): the greedy
// rule CI tools use for timing-based splits. Deterministic, so every shard that computes a
// split from the same weights gets the same one: files sorted by weight, then by name in
// code-unit order (never the locale's), and a tie between shards goes to the lower index.
// The same rule as @testrun/core's split by size (plan/place-files.ts), written again here:
// the server depends on nothing of the client's.

export interface WeightedFile {
  /** The file as the service names it (its testSuite). */
  file: string;
  /** Milliseconds from durations, bytes from sizes: only their proportions matter. */
  weight: number;
}

export interface ShardShare {
  /** In the order they were placed: the heaviest first, as a shard best runs them. */
  files: string[];
  weight: number;
}

/** `files` split into `count` shares; every file in exactly one. */
export function placeFiles(files: readonly WeightedFile[], count: number): ShardShare[] {
  const shares: ShardShare[] = Array.from({ length: count }, () => ({ files: [], weight: 0 }));
  const heaviestFirst = [...files].sort((a, b) => b.weight - a.weight || compareNames(a.file, b.file));
  const lightest = new LightestShard(count);
  for (const { file, weight } of heaviestFirst) {
    const index = lightest.take();
    const share = shares[index]!;
    share.files.push(file);
    share.weight += weight;
    lightest.put(index, share.weight);
  }
  return shares;
}

/** Names compared by code unit, the same on every machine whatever its locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The median of `values` (the mean of the middle two for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A binary heap of shards by (weight, index): the least loaded on top, the lower index first
 * among equals. Placing 100,000 files into 1,000 shards stays fast.
 */
class LightestShard {
  private readonly heap: { index: number; weight: number }[];

  constructor(count: number) {
    this.heap = Array.from({ length: count }, (_, index) => ({ index, weight: 0 }));
  }

  /** Removes the lightest shard and answers its index. */
  take(): number {
    const top = this.heap[0]!;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top.index;
  }

  put(index: number, weight: number): void {
    this.heap.push({ index, weight });
    this.up(this.heap.length - 1);
  }

  private lighter(a: number, b: number): boolean {
    const x = this.heap[a]!;
    const y = this.heap[b]!;
    return x.weight < y.weight || (x.weight === y.weight && x.index < y.index);
  }

  private up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.lighter(at, parent)) return;
      this.swap(at, parent);
      at = parent;
    }
  }

  private down(at: number): void {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let least = at;
      if (left < this.heap.length && this.lighter(left, least)) least = left;
      if (right < this.heap.length && this.lighter(right, least)) least = right;
      if (least === at) return;
      this.swap(at, least);
      at = least;
    }
  }

  private swap(a: number, b: number): void {
    const held = this.heap[a]!;
    this.heap[a] = this.heap[b]!;
    this.heap[b] = held;
  }
}
