import path from 'node:path';
import { toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { errorOrigin } from '../src/error-origin.js';
import { lastFinishedAttempt, mapTest } from '../src/map-test.js';
import { isLastAttempt, TestFiles } from '../src/test-files.js';
import { RECORDED_PROJECT, recording, testsIn } from './recorded-suite.js';

// mapTest and TestFiles on the objects Playwright itself handed a reporter for
// fixtures/recorded/project (recorded once, see fixtures/recorded/README.md): no Playwright runs here.
const run = recording('run');
const interrupted = recording('interrupted');

/** The tests of `file` in project `first`, as [titles joined, status]. */
function statuses(file: string) {
  return testsIn(run, file, 'first').map((test) => {
    const mapped = mapTest(test)!.test;
    return [mapped.titles.join(' > '), mapped.status];
  });
}

describe(`mapTest on Playwright ${run.version}'s recorded objects`, () => {
  it('gives each test its describe titles outermost first, none for an anonymous group, and its verdict', () => {
    expect(statuses('cart.test.js')).toEqual([
      ['cart > totals > sums line items', 'passed'],
      ['cart > totals > rounds half cents to even', 'skipped'],
      // test.fixme: Playwright has no todo.
      ['cart > totals > supports gift cards', 'skipped'],
      ['cart > fails on purpose', 'failed'],
      // test.fail that failed: what was expected.
      ['cart > is known to fail', 'passed'],
      ['is in an anonymous group', 'passed'],
      ['a test outside any describe', 'passed'],
    ]);
  });

  it("hands core why a test failed: the last attempt's errors, Playwright's own location, the attempt", () => {
    const failing = testsIn(run, 'cart.test.js', 'first').find((test) => test.title === 'fails on purpose')!;
    const { failure } = mapTest(failing)!.test;
    const file = path.join(RECORDED_PROJECT, 'cart.test.js');
    expect(toFailureDetails(failure, { file, rootDir: RECORDED_PROJECT, secrets: undefined })).toMatchObject({
      message: 'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 3\nReceived: 2',
      location: 'cart.test.js:12:19',
      attempts: 1,
    });
    const passing = testsIn(run, 'cart.test.js', 'first').find((test) => test.title === 'sums line items')!;
    expect(mapTest(passing)!.test.failure).toBeUndefined();
  });

  it('fails the tests a failed beforeAll kept from running, and keeps a skipped one skipped', () => {
    const [, writes] = testsIn(run, 'setup-fails.test.js', 'first');
    // Playwright itself calls it skipped.
    expect(writes!.outcome()).toBe('skipped');
    expect(statuses('setup-fails.test.js')).toEqual([
      ['database > reads a row', 'failed'],
      ['database > writes a row', 'failed'],
      ['database > is skipped on purpose', 'skipped'],
      ['runs outside the failing block', 'passed'],
    ]);
  });

  it("hands a test a failed beforeAll kept from running the hook's error, which Playwright gave the test that ran first", () => {
    const tests = testsIn(run, 'setup-fails.test.js', 'first');
    const [reads, writes] = tests;
    expect(writes!.results.map((result) => [result.status, result.errors])).toEqual([['skipped', []]]);
    const context = { file: writes!.location.file, rootDir: RECORDED_PROJECT, secrets: undefined };
    const details = (test: typeof writes) => toFailureDetails(mapTest(test!, tests)!.test.failure, context);
    expect(details(writes)).toEqual(details(reads));
    expect(details(writes)).toMatchObject({
      message: 'Error: cannot connect to the database',
      location: 'setup-fails.test.js:5:11',
    });
    // Without its file's tests, what Playwright's verdict alone says.
    expect(toFailureDetails(mapTest(writes!)!.test.failure, context)?.message).toBe(
      'Playwright did not run this test: a beforeAll hook of its block, or an earlier test of its serial group, failed',
    );
  });

  it("says in Playwright's words why a test.fail() that passed failed", () => {
    const [known] = testsIn(run, 'cart.test.js', 'first').filter((test) => test.title === 'is known to fail');
    const passed = { ...known!.results[0]!, status: 'passed' as const, errors: [] };
    const unexpected = Object.assign(Object.create(known!), {
      results: [passed],
      outcome: () => 'unexpected',
    });
    expect(mapTest(unexpected)!.test.failure).toEqual({
      errors: ['Expected to fail, but passed.'],
      attempts: 1,
    });
  });

  it('reports a test that passed on a retry once, passed and flaky, with the time of its last attempt', () => {
    const [flaky, failing] = testsIn(run, 'retried.test.js', 'first');
    expect(flaky!.results.map((result) => result.status)).toEqual(['failed', 'passed']);
    expect(mapTest(flaky!)).toEqual({
      test: {
        titles: ['passes on the second attempt'],
        status: 'passed',
        duration: flaky!.results[1]!.duration,
        attempts: 2,
      },
      flaky: true,
    });
    expect(failing!.results).toHaveLength(3);
    expect(mapTest(failing!)).toEqual({
      test: {
        titles: ['fails every attempt'],
        status: 'failed',
        duration: failing!.results[2]!.duration,
        failure: expect.objectContaining({ attempts: 3 }),
      },
      flaky: false,
    });
  });

  it("takes Playwright's duration of the attempt, 0 for a skipped test", () => {
    for (const test of testsIn(run, 'cart.test.js', 'first')) {
      const { duration, status } = mapTest(test)!.test;
      expect(duration).toBe(test.results.at(-1)!.duration);
      if (status === 'skipped') expect(duration).toBe(0);
    }
  });

  it('makes no result of a test that --max-failures interrupted or never started', () => {
    const [running, notStarted] = testsIn(interrupted, 'interrupted.test.js', '');
    expect(running!.results.map((result) => result.status)).toEqual(['interrupted']);
    expect(notStarted!.results).toEqual([]);
    expect(lastFinishedAttempt(running!)).toBeUndefined();
    expect(mapTest(running!)).toBeUndefined();
    expect(mapTest(notStarted!)).toBeUndefined();
    expect(mapTest(testsIn(interrupted, 'stops.test.js', '')[0]!)?.test.status).toBe('failed');
  });

  it("ignores the error that says --max-failures stopped the run, Playwright's own words", () => {
    expect(interrupted.errors).toHaveLength(1);
    const { error, workerInfo } = interrupted.errors[0]!;
    expect(errorOrigin(error, workerInfo, interrupted.config)).toEqual({ kind: 'ignored' });
  });
});

describe(`TestFiles on Playwright ${run.version}'s recorded objects`, () => {
  const where = (file: { file: string; project: { name: string } | undefined }) =>
    `[${file.project?.name}] ${path.relative(RECORDED_PROJECT, file.file)}`;

  it('holds each spec file once per project that runs it, with its tests', () => {
    const files = new TestFiles(run.root).all();
    expect(files.map(where)).toEqual([
      '[first] cart.test.js',
      '[first] retried.test.js',
      '[first] setup-fails.test.js',
      '[second] cart.test.js',
    ]);
    expect(files.map((file) => file.tests.length)).toEqual([7, 2, 4, 7]);
    expect(files[0]!.project).toMatchObject({ name: 'first', testDir: RECORDED_PROJECT });
  });

  it('finishes each file once, at the last attempt of its last test, retries included', () => {
    const files = new TestFiles(run.root);
    const finished: string[] = [];
    for (const { test, result } of run.attempts) {
      const file = files.attemptEnded(test, result);
      if (!file) continue;
      // The reporter hands it over, which marks it.
      file.reported = true;
      finished.push(`${where(file)} after ${test.title}${result.retry ? ` (retry ${result.retry})` : ''}`);
    }
    expect(finished).toEqual([
      '[first] cart.test.js after a test outside any describe',
      '[first] retried.test.js after fails every attempt (retry 2)',
      '[first] setup-fails.test.js after runs outside the failing block',
      '[second] cart.test.js after a test outside any describe',
    ]);
  });

  it('takes an attempt Playwright will retry, or an interrupted one, for no last word', () => {
    const [flaky] = testsIn(run, 'retried.test.js', 'first');
    expect(flaky!.results.map((result) => isLastAttempt(flaky!, result))).toEqual([false, true]);
    const [running] = testsIn(interrupted, 'interrupted.test.js', '');
    expect(isLastAttempt(running!, running!.results[0]!)).toBe(false);
  });

  it('finds a file by a copy of its project, as worker errors carry one', () => {
    const files = new TestFiles(run.root);
    const second = run.config.projects.find((project) => project.name === 'second')!;
    const found = files.find(path.join(RECORDED_PROJECT, 'cart.test.js'), { ...second });
    expect(found && where(found)).toBe('[second] cart.test.js');
  });
});
