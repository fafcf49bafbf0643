import { describe, expect, it } from 'vitest';
import { mapOutermostTest, type TestEvent } from '../src/map-events.js';

const cwd = '/repo';
const file = '/repo/test/cart.test.js';
const start = (name: string, nesting: number, at = file): TestEvent => ({
  type: 'test:start',
  data: { name, nesting, file: at },
});
const end = (
  passed: boolean,
  name: string,
  nesting: number,
  details: TestEvent['data']['details'] = {},
  extra: Partial<TestEvent['data']> = {},
): TestEvent => ({
  type: passed ? 'test:pass' : 'test:fail',
  data: { name, nesting, file, details: { duration_ms: 2, ...details }, ...extra },
});

describe('mapOutermostTest', () => {
  it('names tests by their describe blocks, makes no result of a block, and keeps skip and todo', () => {
    const report = mapOutermostTest(
      [
        start('cart', 0),
        start('adds', 1),
        end(true, 'adds', 1),
        start('skips', 1),
        end(true, 'skips', 1, {}, { skip: true }),
        start('later', 1),
        end(true, 'later', 1, {}, { todo: 'not yet' }),
        start('fails', 1),
        end(false, 'fails', 1, { error: { failureType: 'testCodeFailure' } }),
        end(false, 'cart', 0, { type: 'suite', error: { failureType: 'subtestsFailed' } }),
      ],
      cwd,
    );
    expect(report).toEqual({
      file,
      failedOutsideTests: false,
      tests: [
        { titles: ['cart', 'adds'], status: 'passed', duration: 2 },
        { titles: ['cart', 'skips'], status: 'skipped', duration: 2 },
        { titles: ['cart', 'later'], status: 'todo', duration: 2 },
        { titles: ['cart', 'fails'], status: 'failed', duration: 2 },
      ],
    });
  });

  it('fails the file for a block that failed on its own (a hook)', () => {
    const report = mapOutermostTest(
      [
        start('teardown', 0),
        start('passes', 1),
        end(true, 'passes', 1),
        end(false, 'teardown', 0, { type: 'suite', error: { failureType: 'hookFailed' } }),
      ],
      cwd,
    );
    expect(report?.failedOutsideTests).toBe(true);
    expect(report?.tests).toHaveLength(1);
  });

  it("reports a test with subtests beside them, and takes the file from the outermost test, not a helper's", () => {
    const report = mapOutermostTest(
      [
        start('checkout', 0),
        start('from a helper', 1, '/repo/helpers/totals.js'),
        {
          ...end(true, 'from a helper', 1),
          data: { ...end(true, 'from a helper', 1).data, file: '/repo/helpers/totals.js' },
        },
        end(true, 'checkout', 0),
      ],
      cwd,
    );
    expect(report?.file).toBe(file);
    expect(report?.tests.map((test) => test.titles)).toEqual([['checkout', 'from a helper'], ['checkout']]);
  });

  it.each([
    ['absolute, as Node 20 names it', file],
    ['relative, as Node 22 and 24 name it', 'test/cart.test.js'],
  ])('names a file without tests by its path from the working directory, its name %s', (_how, name) => {
    const report = mapOutermostTest([start(name, 0), end(true, name, 0)], cwd);
    expect(report?.tests).toEqual([{ titles: ['test/cart.test.js'], status: 'passed', duration: 2 }]);
  });

  it('fails a file that failed outside its tests, with no result for the file test itself', () => {
    const report = mapOutermostTest([start('test/cart.test.js', 0), end(false, 'test/cart.test.js', 0)], cwd);
    expect(report).toEqual({ file, tests: [], failedOutsideTests: true });
  });

  it('does not fail a file the run cancelled (a signal), as node:test reports it', () => {
    const cancelled = { error: { failureType: 'cancelledByParent' } };
    const report = mapOutermostTest(
      [start('test/cart.test.js', 0), end(false, 'test/cart.test.js', 0, cancelled)],
      cwd,
    );
    expect(report).toEqual({ file, tests: [], failedOutsideTests: false });
  });
});
