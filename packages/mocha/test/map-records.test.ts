import path from 'node:path';
import { type RawFailure, toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { type MochaRecord, mapRecords } from '../src/map-records.js';
import type { MochaRunnable } from '../src/mocha-types.js';
import { RECORDED_PROJECT, recording, recordsOf, specFiles } from './recorded-events.js';

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

/** What core makes of a failure in the recorded project's `file`: Mocha cut the working directory off its stacks. */
const detailsIn = (file: string, failure: RawFailure | undefined) =>
  toFailureDetails(failure, {
    file,
    rootDir: RECORDED_PROJECT,
    startDir: RECORDED_PROJECT,
    secrets: undefined,
  });

describe('mapRecords', () => {
  it("hands core why a recorded test failed: Mocha's error, and its line though Mocha cut the directory off", () => {
    const recorded = recording('serial');
    const { files } = mapRecords(recordsOf(recorded.events, recorded.mode), specFiles());
    const cart = files.find((file) => file.file.endsWith('cart.test.js'))!;
    const failed = cart.tests.find((t) => t.status === 'failed')!;
    expect(detailsIn(cart.file, failed.failure)).toMatchObject({
      message: 'Expected values to be strictly equal:\n\n2 !== 3',
      location: 'cart.test.js:16:12',
    });
  });

  it('names each ended test by its title path, pending as skipped', () => {
    const records: MochaRecord[] = [
      { kind: 'ended', test: test(['cart', 'adds']), outcome: 'passed' },
      { kind: 'ended', test: test(['cart', 'skips']), outcome: 'pending' },
      {
        kind: 'ended',
        test: test(['fails'], '/repo/b.test.js', { currentRetry: () => 1 }),
        outcome: 'failed',
        error: new Error('boom'),
      },
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
        tests: [
          {
            titles: ['fails'],
            status: 'failed',
            duration: 3,
            failure: { errors: [new Error('boom')], attempts: 2 },
          },
        ],
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
      files: [
        {
          file: `${cwd}/teardown.test.js`,
          tests: [],
          failedOutsideTests: true,
          failure: { errors: [error] },
        },
      ],
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
    expect(files).toEqual([
      { file: '/repo/b.test.mjs', tests: [], failedOutsideTests: true, failure: { errors: [loadError] } },
    ]);
    expect(runErrors).toEqual(['stray rejection']);
  });
});

// mapRecords on the events Mocha itself handed a reporter for fixtures/recorded/project, run
// serially and with --parallel (recorded once, see fixtures/recorded/README.md): no Mocha
// runs here. Both modes store the same results.
describe.each([recording('serial'), recording('parallel')])(
  "mapRecords on Mocha $version's recorded events, $mode",
  (recorded) => {
    const { files, runErrors } = mapRecords(recordsOf(recorded.events, recorded.mode), specFiles());
    const fileNamed = (name: string) => {
      const file = files.find((candidate) => candidate.file === path.join(RECORDED_PROJECT, name));
      if (!file) throw new Error(`no results for ${name}`);
      return file;
    };
    const statuses = (name: string) =>
      fileNamed(name).tests.map(({ titles, status }) => [titles.join(' > '), status]);

    it("names each test by Mocha's title path, and reports pending tests of every kind skipped", () => {
      // Mocha runs a suite's own tests before its inner suites.
      expect(statuses('cart.test.js')).toEqual([
        ['a test outside any describe', 'passed'],
        ['cart > fails on purpose', 'failed'],
        ['cart > totals > sums line items', 'passed'],
        ['cart > totals > rounds half cents to even', 'skipped'],
        ['cart > totals > supports gift cards', 'skipped'],
        ['cart > totals > skips itself', 'skipped'],
        ['legacy checkout > still charges the card', 'skipped'],
      ]);
      expect(fileNamed('cart.test.js').failedOutsideTests).toBe(false);
    });

    it("takes Mocha's duration of a test that ran, and 0 for a pending test, which has none", () => {
      const ended = recorded.events.filter((event) => event.name === 'pass' || event.name === 'fail');
      const durations = new Map(
        fileNamed('cart.test.js').tests.map(({ titles, duration }) => [titles.at(-1), duration]),
      );
      const failed = ended.find((event) => event.test?.title === 'fails on purpose')!.test!;
      expect(durations.get('fails on purpose')).toBe(failed.duration);
      const pending = recorded.events.find((event) => event.test?.title === 'supports gift cards')!.test!;
      expect(pending.duration).toBeUndefined();
      expect(durations.get('supports gift cards')).toBe(0);
    });

    it('reports a test that passed on a retry once, passed', () => {
      // Mocha runs a retry as a copy of the test, with an id of its own.
      const started = recorded.events.filter(
        (event) => event.name === 'test' && event.test?.title === 'passes on the second attempt',
      );
      expect(new Set(started.map(({ test }) => test!.id ?? test!.__mocha_id__)).size).toBe(2);
      expect(statuses('retried.test.js')).toEqual([['retried > passes on the second attempt', 'passed']]);
      expect(fileNamed('retried.test.js').tests.map((test) => test.attempts)).toEqual([2]);
      expect(fileNamed('cart.test.js').tests.filter((test) => test.attempts !== undefined)).toEqual([]);
    });

    it('fails the tests a failed before hook kept from running, and keeps a skipped one skipped', () => {
      expect(statuses('setup-fails.test.js')).toEqual([
        ['runs outside the failing block', 'passed'],
        ['database > reads a row', 'failed'],
        ['database > writes a row', 'failed'],
        ['database > is skipped on purpose', 'skipped'],
      ]);
      expect(fileNamed('setup-fails.test.js').failedOutsideTests).toBe(false);
    });

    it('fails the test an afterEach failed after, once, and the rest of its suite', () => {
      expect(statuses('each-fails.test.js')).toEqual([
        ['cleanup > passes before its afterEach fails', 'failed'],
        ['cleanup > never runs', 'failed'],
      ]);
    });

    it("fails the file of an after hook that prevented nothing, and keeps its test's result", () => {
      expect(fileNamed('teardown-fails.test.js')).toEqual({
        file: path.join(RECORDED_PROJECT, 'teardown-fails.test.js'),
        tests: [
          {
            titles: ['teardown', 'passes before the teardown'],
            status: 'passed',
            duration: expect.any(Number),
          },
        ],
        failedOutsideTests: true,
        failure: { errors: [expect.objectContaining({ message: 'teardown failed' })] },
      });
    });

    it("hands core the after hook's error for the file's (file failed to run)", () => {
      const report = fileNamed('teardown-fails.test.js');
      expect(detailsIn(report.file, report.failure)).toMatchObject({
        message: 'teardown failed',
        location: 'teardown-fails.test.js:3:11',
      });
    });

    it('places every failure of the run in a file', () => {
      expect(runErrors).toEqual([]);
    });
  },
);
