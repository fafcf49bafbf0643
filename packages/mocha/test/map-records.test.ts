import { describe, expect, it } from 'vitest';
import { type MochaRecord, mapRecords } from '../src/map-records.js';
import type { MochaRunnable } from '../src/mocha-types.js';

const test = (
  titles: string[],
  file = '/repo/a.test.js',
  extra: Partial<MochaRunnable> = {},
): MochaRunnable => ({
  type: 'test',
  title: titles.at(-1),
  file,
  duration: 3,
  titlePath: () => titles,
  ...extra,
});

describe('mapRecords', () => {
  it('names each ended test by its title path, pending as skipped', () => {
    const records: MochaRecord[] = [
      { kind: 'ended', test: test(['cart', 'adds']), outcome: 'passed' },
      { kind: 'ended', test: test(['cart', 'skips']), outcome: 'pending' },
      { kind: 'ended', test: test(['fails'], '/repo/b.test.js'), outcome: 'failed' },
    ];
    expect(mapRecords(records, []).files).toEqual([
      {
        file: '/repo/a.test.js',
        failedOutsideTests: false,
        tests: [
          { titles: ['cart', 'adds'], status: 'passed', duration: 3 },
          { titles: ['cart', 'skips'], status: 'skipped', duration: 3 },
        ],
      },
      {
        file: '/repo/b.test.js',
        failedOutsideTests: false,
        tests: [{ titles: ['fails'], status: 'failed', duration: 3 }],
      },
    ]);
  });

  it('fails the tests a hook prevented, keeps a pending one skipped, and fails a test reported before by its id', () => {
    const ran = test(['block', 'ran'], '/repo/a.test.js', { id: 't1' });
    const records: MochaRecord[] = [
      { kind: 'ended', test: ran, outcome: 'passed' },
      {
        kind: 'hook',
        hook: { type: 'hook', title: '"after each" hook for "ran"', file: '/repo/a.test.js' },
        error: new Error('cleanup failed'),
        prevented: [
          test(['block', 'ran'], '/repo/a.test.js', { id: 't1', isPending: () => false }),
          test(['block', 'next'], '/repo/a.test.js', { id: 't2', isPending: () => false }),
          test(['block', 'skipped'], '/repo/a.test.js', { id: 't3', isPending: () => true }),
        ],
      },
    ];
    const [file] = mapRecords(records, []).files;
    expect(file!.tests.map(({ titles, status }) => [titles.join(' > '), status])).toEqual([
      ['block > ran', 'failed'],
      ['block > next', 'failed'],
      ['block > skipped', 'skipped'],
    ]);
    expect(file!.failedOutsideTests).toBe(false);
  });

  it("fails a hook's file when it prevented nothing, finding a root hook's file in the error's stack", () => {
    const error = new Error('teardown failed');
    error.stack = 'Error: teardown failed\n    at Context.<anonymous> (teardown.test.js:2:9)';
    const records: MochaRecord[] = [
      { kind: 'hook', hook: { type: 'hook', title: '"after all" hook' }, error, prevented: [] },
    ];
    const cwd = process.cwd();
    expect(mapRecords(records, [`${cwd}/x-teardown.test.js`, `${cwd}/teardown.test.js`])).toEqual({
      files: [{ file: `${cwd}/teardown.test.js`, tests: [], failedOutsideTests: true }],
      runErrors: [],
    });
  });

  it('pins an error outside tests to the spec file its stack names as a path or a file URL, else to the run', () => {
    const loadError = new Error('cannot load');
    loadError.stack = 'SyntaxError: Unexpected token\n    at file:///repo/b.test.mjs:3:1';
    const stray = new Error('stray rejection');
    stray.stack = 'Error: stray rejection\n    at /repo/lib/helper.js:1:1';
    const { files, runErrors } = mapRecords(
      [
        { kind: 'outside', error: loadError },
        { kind: 'outside', error: stray },
      ],
      ['/repo/a.test.js', '/repo/b.test.mjs'],
    );
    expect(files).toEqual([{ file: '/repo/b.test.mjs', tests: [], failedOutsideTests: true }]);
    expect(runErrors).toEqual(['stray rejection']);
  });
});
