import path from 'node:path';
import { type FileReport, toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { errorInStderr, mapOutermostTest, type TestEvent } from '../src/map-events.js';
import { outermostTests, RECORDED_PROJECT, recording, reportsOf } from './recorded-events.js';

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
        {
          titles: ['cart', 'fails'],
          status: 'failed',
          duration: 2,
          failure: {
            errors: [{ failureType: 'testCodeFailure' }],
            declaredAt: { file, line: undefined, column: undefined },
          },
        },
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
    // Nothing printed, no exit code: node:test's own words are all there is.
    expect(report).toEqual({
      file,
      tests: [],
      failedOutsideTests: true,
      failure: { errors: ['test failed'] },
    });
  });

  it('reads what a file printed as an error: the paragraph before the first frame, else all of it', () => {
    const syntax = `${file}:4\n\n\n\nSyntaxError: Unexpected end of input\n    at wrapSafe (node:internal/modules/cjs/loader:1464:18)\n\nNode.js v20.20.2\n`;
    expect(errorInStderr(syntax)).toEqual({
      message: 'SyntaxError: Unexpected end of input',
      stack: syntax.replace('\n\nNode.js v20.20.2\n', ''),
    });
    expect(errorInStderr('could not connect\n')).toEqual({ message: 'could not connect', stack: '' });
    expect(errorInStderr('\nNode.js v22.23.3\n')).toBeUndefined();
  });

  it('hands core where a failed test is declared, for an error without a stack', () => {
    const report = mapOutermostTest(
      [
        start('adds', 0),
        end(false, 'adds', 0, { error: { cause: { message: 'no stack' } } }, { line: 4, column: 3 }),
      ],
      cwd,
    );
    expect(toFailureDetails(report!.tests[0]!.failure, { file, rootDir: cwd, secrets: undefined })).toEqual({
      message: 'no stack',
      location: 'test/cart.test.js:4:3',
    });
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

// mapOutermostTest on the events node:test itself handed a reporter for
// fixtures/recorded/project (recorded once, see fixtures/recorded/README.md): no test runner runs here.
const recorded = recording();

describe(`mapOutermostTest on node:test's recorded events (Node ${recorded.version})`, () => {
  const units = outermostTests(recorded.events);
  const reports = reportsOf(recorded.events, RECORDED_PROJECT);
  /** The report of the outermost test `name` (a file's path, for the test node:test makes of a file). */
  const reportOf = (name: string) => {
    const at = units.findIndex((events) => events.at(-1)!.data.name === name);
    if (at === -1) throw new Error(`no outermost test ${name}`);
    return reports[at]!;
  };
  /** The name of the test node:test makes of the file `name` (absolute on Node 20, relative on 22 and 24). */
  const fileTest = (name: string) =>
    String(units.map((unit) => unit.at(-1)!.data.name).find((n) => String(n).endsWith(name)));
  const detailsOf = (report: FileReport) =>
    toFailureDetails(report.failure, { file: report.file, rootDir: RECORDED_PROJECT, secrets: undefined });
  const statuses = (name: string) =>
    reportOf(name).tests.map(({ titles, status }) => [titles.join(' > '), status]);
  const file = (name: string) => path.join(RECORDED_PROJECT, 'test', name);

  it('gives each test its describe titles outermost first, and passed, failed, skipped or todo', () => {
    expect(statuses('cart')).toEqual([
      ['cart > totals > sums line items', 'passed'],
      ['cart > totals > rounds half cents to even', 'skipped'],
      ['cart > totals > supports gift cards', 'todo'],
      ['cart > totals > skips itself', 'skipped'],
      ['cart > fails on purpose', 'failed'],
    ]);
    expect(reportOf('a test outside any describe').tests).toMatchObject([
      { titles: ['a test outside any describe'], status: 'passed' },
    ]);
  });

  it('hands core why a test failed: the error the test threw, and its line in the stack', () => {
    const failed = reportOf('cart').tests.find((test) => test.status === 'failed')!;
    const context = { file: file('cart.test.js'), rootDir: RECORDED_PROJECT, secrets: undefined };
    expect(toFailureDetails(failed.failure, context)).toEqual({
      message: 'Expected values to be strictly equal:\n\n2 !== 3',
      stack: expect.stringContaining('cart.test.js:16:12'),
      location: 'test/cart.test.js:16:12',
    });
  });

  it("names the file by the outermost test's absolute path, and does not fail it for a failed test", () => {
    expect(reportOf('cart').file).toBe(file('cart.test.js'));
    expect(reportOf('cart').failedOutsideTests).toBe(false);
  });

  it('makes no result of a skipped describe block, nor of its tests, which node:test never reports', () => {
    expect(reportOf('legacy checkout')).toEqual({
      file: file('cart.test.js'),
      tests: [],
      failedOutsideTests: false,
    });
  });

  it("takes node:test's duration_ms of each test as it is", () => {
    const [unit] = units;
    const ended = unit!.filter(
      (event) => event.type !== 'test:start' && event.data.details?.type !== 'suite',
    );
    expect(reportOf('cart').tests.map((test) => test.duration)).toEqual(
      ended.map((event) => event.data.details?.duration_ms),
    );
    expect(reportOf('cart').tests.every((test) => typeof test.duration === 'number')).toBe(true);
  });

  it('fails the tests a failed before hook cancelled, keeps a skipped one skipped, and fails the file', () => {
    expect(statuses('database')).toEqual([
      ['database > reads a row', 'failed'],
      ['database > is skipped on purpose', 'skipped'],
    ]);
    expect(reportOf('database').failedOutsideTests).toBe(true);
  });

  it("hands the tests a failed before hook cancelled the hook's error, which node:test reports on their block after them", () => {
    const report = reportOf('database');
    const [cancelled] = recorded.events.filter(
      (event) => event.data.name === 'reads a row' && event.type === 'test:fail',
    );
    expect(cancelled!.data.details?.error?.failureType).toBe('cancelledByParent');
    const failed = report.tests.find((test) => test.status === 'failed')!;
    expect(detailsOf({ ...report, failure: failed.failure })).toEqual({
      message: 'cannot connect to the database',
      stack: expect.stringContaining('setup-fails.test.js:5:11'),
      location: 'test/setup-fails.test.js:5:11',
    });
  });

  it('fails the file of a block whose after hook failed, with the hook’s error, and keeps its passed test', () => {
    const report = reportOf('teardown');
    expect(report).toMatchObject({
      file: file('teardown-fails.test.js'),
      tests: [{ titles: ['teardown', 'passes before the teardown'], status: 'passed' }],
      failedOutsideTests: true,
    });
    expect(detailsOf(report)).toEqual({
      message: 'teardown failed',
      stack: expect.stringContaining('teardown-fails.test.js:5:11'),
      location: 'test/teardown-fails.test.js:5:11',
    });
  });

  it('reports a test with subtests beside them, in the file of the outermost test, not the helper', () => {
    expect(reportOf('checkout').file).toBe(file('subtests.test.js'));
    expect(statuses('checkout')).toEqual([
      ['checkout > adds the items', 'passed'],
      ['checkout > checks the totals in a helper', 'passed'],
      ['checkout', 'passed'],
    ]);
  });

  it('names a file that declares no test by its path from the working directory', () => {
    const [name] = units
      .map((unit) => unit.at(-1)!.data.name)
      .filter((n) => String(n).endsWith('empty.test.js'));
    expect(reportOf(name as string)).toMatchObject({
      file: file('empty.test.js'),
      tests: [{ titles: ['test/empty.test.js'], status: 'passed' }],
      failedOutsideTests: false,
    });
  });

  it('fails a file that throws while it is imported, with no result of its own, and why from what it printed', () => {
    const report = reportOf(fileTest('import-throws.test.js'));
    expect(report).toMatchObject({
      file: file('import-throws.test.js'),
      tests: [],
      failedOutsideTests: true,
    });
    // node:test's test of the file says "test failed"; its process printed the error to stderr.
    expect(detailsOf(report)).toEqual({
      message: 'Error: this file throws while it is imported',
      // Node's own first line: the file and the line that threw, above the source and a caret.
      stack: expect.stringMatching(/^.*import-throws\.test\.js:1\n/),
      location: 'test/import-throws.test.js:1',
    });
  });

  it('fails a file whose process exited non-zero after its tests, saying the exit code when it printed nothing', () => {
    const passed = reportOf('passes before the file exits non-zero');
    expect(passed.tests.map((test) => test.status)).toEqual(['passed']);
    const report = reportOf(fileTest('exits-non-zero.test.js'));
    expect(report).toMatchObject({
      file: file('exits-non-zero.test.js'),
      tests: [],
      failedOutsideTests: true,
    });
    expect(detailsOf(report)).toEqual({ message: 'test failed: its process exited with code 3' });
  });
});
