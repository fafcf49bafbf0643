import { describe, expect, it } from 'vitest';
import { testsNotReported, verdictFails } from '../../src/results/runner-verdict.js';

// How a run the runner failed outside its tests is told: the words every adapter shares.

describe('tests the runner counted but never reported', () => {
  it('are said under a first line that stays the same from run to run, the counts after it', () => {
    expect(testsNotReported('TestCafe', { counted: 28, reported: 5 })).toBe(
      'TestCafe ended the run before it reported every test it counted\nTestCafe counted 28 tests and reported 5: 23 never ended',
    );
  });

  it("put the runner's own error first when it gave one", () => {
    expect(
      testsNotReported('TestCafe', { counted: 1, reported: 0 }, 'The Chrome 156 browser disconnected.'),
    ).toBe('The Chrome 156 browser disconnected.\nTestCafe counted 1 test and reported 0: 1 never ended');
  });

  it('are nothing when every counted test was reported, or more were', () => {
    expect(testsNotReported('TestCafe', { counted: 3, reported: 3 })).toBeUndefined();
    expect(testsNotReported('TestCafe', { counted: 3, reported: 4 })).toBeUndefined();
    expect(testsNotReported('TestCafe', { counted: Number.NaN, reported: 0 })).toBeUndefined();
  });
});

describe('a verdict', () => {
  it('fails the run when the runner says so or the adapter says why', () => {
    expect(
      [{}, { failed: true }, { why: ['x'] }, { why: [] }, { interrupted: true }].map(verdictFails),
    ).toEqual([false, true, true, false, false]);
  });
});
