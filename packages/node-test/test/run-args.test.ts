import { describe, expect, it } from 'vitest';
import { runArgs } from '../src/run-args.js';

describe('runArgs', () => {
  it.each([
    [['--test', '--test-shard=2/3'], { shard: { index: 2, count: 3 }, watch: false }],
    [['--test', '--test-shard', '1/4'], { shard: { index: 1, count: 4 }, watch: false }],
    [['--test', '--watch'], { shard: undefined, watch: true }],
    [['--test', '--watch-path=src'], { shard: undefined, watch: true }],
    [['--test', '--watch-preserve-output'], { shard: undefined, watch: false }],
  ])('reads %j', (execArgv, expected) => {
    expect(runArgs(execArgv)).toEqual(expected);
  });
});
