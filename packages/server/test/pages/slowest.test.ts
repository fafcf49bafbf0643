import { describe, expect, it } from 'vitest';
import type { StoredResult } from '../../src/ledger/store.js';
import { slowestThatRan } from '../../src/pages/run-page.js';

const result = (testCase: string, duration: number, status = 'passed'): StoredResult => ({
  runId: 'r',
  testSuite: 's',
  testCase,
  status,
  duration,
});

describe('slowestThatRan', () => {
  it('keeps the longest results that ran, longest first, ties in arrival order, as a stable sort would', () => {
    const results = [
      result('a', 5),
      result('b', 9),
      result('skipped', 99, 'skipped'),
      result('todo', 98, 'todo'),
      result('c', 9),
      result('d', 1),
      result('e', 7, 'failed'),
      result('f', 9),
    ];
    const sorted = results
      .filter((r) => r.status !== 'skipped' && r.status !== 'todo')
      .sort((x, y) => y.duration - x.duration);
    for (const count of [0, 1, 2, 3, 4, 10]) {
      expect(slowestThatRan(results, count), `count ${count}`).toEqual(sorted.slice(0, count));
    }
  });

  it('agrees with sorting on many results', () => {
    const results = Array.from({ length: 5000 }, (_, n) => result(`t${n}`, (n * 7919) % 1000));
    const sorted = [...results].sort((x, y) => y.duration - x.duration);
    expect(slowestThatRan(results, 10)).toEqual(sorted.slice(0, 10));
  });
});
