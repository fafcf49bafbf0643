import { describe, expect, it } from 'vitest';
import { Batcher } from '../../src/delivery/batcher.js';
import type { TestResult } from '../../src/types.js';

const result = (testCase: string): TestResult => ({
  testSuite: 's',
  testCase,
  status: 'passed',
  duration: 1,
});
const results = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => result(`case ${from + i}`));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Batcher', () => {
  it('hands over a full batch at once, and keeps the rest', () => {
    const batches: TestResult[][] = [];
    const batcher = new Batcher(3, 60_000, (batch) => batches.push(batch));
    batcher.add(results(7));
    expect(batches.map((batch) => batch.length)).toEqual([3, 3]);
    expect(batcher.take()).toEqual(results(1, 6));
  });

  it('hands over a partial batch once flushInterval has passed since it began', async () => {
    const batches: TestResult[][] = [];
    const batcher = new Batcher(100, 20, (batch) => batches.push(batch));
    batcher.add(results(2));
    batcher.add(results(1, 2));
    expect(batches).toEqual([]);
    await sleep(60);
    expect(batches).toEqual([results(3)]);
  });

  it('flushes what it holds when asked, and nothing when it holds nothing', () => {
    const batches: TestResult[][] = [];
    const batcher = new Batcher(100, 60_000, (batch) => batches.push(batch));
    batcher.flush();
    batcher.add(results(2));
    batcher.flush();
    batcher.flush();
    expect(batches).toEqual([results(2)]);
  });

  it('hands nothing over after take(): the process on its way out spools it instead', async () => {
    const batches: TestResult[][] = [];
    const batcher = new Batcher(100, 10, (batch) => batches.push(batch));
    batcher.add(results(2));
    expect(batcher.take()).toEqual(results(2));
    await sleep(40);
    expect(batches).toEqual([]);
  });
});
