import { toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { ctrfDuration, ctrfStatus, mapCtrfTest } from '../../src/reports/map-ctrf.js';
import type { CtrfTest } from '../../src/reports/read-ctrf.js';

function test(fields: Partial<CtrfTest>): CtrfTest {
  return {
    index: 0,
    name: 'adds',
    status: 'passed',
    rawStatus: undefined,
    duration: 3,
    suite: undefined,
    filePath: undefined,
    ...fields,
  };
}

describe('the status of a CTRF test', () => {
  it.each([
    ['passed', undefined, 'passed'],
    ['failed', undefined, 'failed'],
    ['skipped', undefined, 'skipped'],
    ['pending', undefined, 'skipped'],
    ['other', undefined, 'skipped'],
    ['other', 'disabled', 'skipped'],
    ['other', 'todo', 'todo'],
    ['other', 'timedOut', 'failed'],
    ['other', 'timed_out', 'failed'],
    ['other', 'Undefined', 'failed'],
    ['other', 'ambiguous', 'failed'],
    ['other', 'error', 'failed'],
    // rawStatus decides only for other: the writer's status is what it says.
    ['passed', 'failed', 'passed'],
    ['skipped', 'failed', 'skipped'],
  ] as const)('%s with rawStatus %s is %s', (status, rawStatus, expected) => {
    expect(ctrfStatus({ status, rawStatus })).toBe(expected);
  });
});

describe('the duration of a CTRF test', () => {
  it('is milliseconds as written; missing is undefined; anything else is unknown (NaN)', () => {
    expect([ctrfDuration(12), ctrfDuration(0), ctrfDuration(1.5)]).toEqual([12, 0, 1.5]);
    expect([ctrfDuration(undefined), ctrfDuration(null)]).toEqual([undefined, undefined]);
    for (const odd of ['12', -1, Number.POSITIVE_INFINITY, {}, true]) expect(ctrfDuration(odd)).toBeNaN();
  });
});

describe('the name of a CTRF test', () => {
  it('is its file and, after the suite levels that do not name the file, its own title', () => {
    expect(
      mapCtrfTest(
        test({
          name: 'Cart totals sums',
          suite: 'cart.test.ts > Cart > totals',
          filePath: '/home/runner/work/shop/shop/src/cart.test.ts',
        }),
      ),
    ).toEqual({
      kind: 'file',
      file: '/home/runner/work/shop/shop/src/cart.test.ts',
      test: { titles: ['Cart', 'totals', 'sums'], status: 'passed', duration: 3 },
    });
  });

  it('drops a level that is the path below the test folder, keeps the others, and reads backslashes and arrays', () => {
    expect(
      mapCtrfTest(
        test({
          name: 'pays',
          suite: ['chromium', 'checkout\\pay.spec.ts', 'Pay'],
          filePath: 'C:\\ci\\shop\\e2e\\checkout\\pay.spec.ts',
        }),
      ),
    ).toMatchObject({
      kind: 'file',
      file: 'C:/ci/shop/e2e/checkout/pay.spec.ts',
      test: { titles: ['chromium', 'Pay', 'pays'] },
    });
  });

  it('keeps a name that does not start with its levels as written', () => {
    expect(mapCtrfTest(test({ name: 'sums', suite: 'Cart', filePath: 'src/cart.test.ts' }))).toMatchObject({
      test: { titles: ['Cart', 'sums'] },
    });
    // "Cart" alone is the level again, not a title after it.
    expect(mapCtrfTest(test({ name: 'Cart ', suite: 'Cart', filePath: 'src/cart.test.ts' }))).toMatchObject({
      test: { titles: ['Cart', 'Cart '] },
    });
  });

  it('is its suite and name without a file, and nameless where they are missing', () => {
    expect(mapCtrfTest(test({ suite: ['api', 'users'], name: 'lists' }))).toEqual({
      kind: 'named',
      result: { testSuite: 'api > users', testCase: 'lists', status: 'passed', duration: 3 },
    });
    expect(mapCtrfTest(test({ name: undefined, suite: '  ', filePath: '' }))).toEqual({
      kind: 'named',
      result: { testSuite: undefined, testCase: undefined, status: 'passed', duration: 3 },
    });
  });
});

describe('why a CTRF test failed', () => {
  it('goes to core from message, trace, line and retries', () => {
    const mapped = mapCtrfTest(
      test({
        status: 'failed',
        filePath: 'tests/cart.spec.ts',
        message: 'expected 2 to be 3',
        trace: 'Error: expected 2 to be 3\n    at node_modules/x.js:1:1',
        line: 12,
        retries: 2,
      }),
    );
    const context = { file: '/repo/tests/cart.spec.ts', rootDir: '/repo', secrets: undefined };
    expect(mapped.kind === 'file' && toFailureDetails(mapped.test.failure, context)).toEqual({
      message: 'expected 2 to be 3',
      stack: 'Error: expected 2 to be 3\n    at node_modules/x.js:1:1',
      location: 'tests/cart.spec.ts:12',
      attempts: 3,
    });
  });

  it('is nothing for a passed test, or a failed one whose writer said nothing', () => {
    const passed = mapCtrfTest(test({ message: 'not read' }));
    const silent = mapCtrfTest(test({ status: 'failed' }));
    expect(passed.kind === 'named' && passed.result.failure).toBeUndefined();
    expect(silent.kind === 'named' && silent.result.failure).toBeUndefined();
  });
});
