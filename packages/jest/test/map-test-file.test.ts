import path from 'node:path';
import { toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { mapTestFile, mapUnfinishedFile } from '../src/map-test-file.js';
import { fileNamed, RECORDED_PROJECT, type RecordedFile, recording } from './recorded-results.js';

// mapTestFile and mapUnfinishedFile on the objects Jest itself handed a reporter for
// fixtures/recorded/project (recorded once, see fixtures/recorded/README.md): no Jest runs here.
const recorded = recording();
const { version, files, unfinished } = recorded;

/** The file's tests as [titles joined, status]. */
function statuses({ test, testResult }: RecordedFile) {
  return mapTestFile(test, testResult).tests.map(({ titles, status }) => [titles.join(' > '), status]);
}

describe(`mapTestFile on Jest ${version}'s recorded objects`, () => {
  it('gives each test its describe titles outermost first, and passed, failed, skipped or todo', () => {
    expect(statuses(fileNamed(files, 'cart.test.js'))).toEqual([
      ['cart > totals > sums line items', 'passed'],
      ['cart > totals > rounds half cents to even', 'skipped'],
      ['cart > totals > supports gift cards', 'todo'],
      ['cart > fails on purpose', 'failed'],
      ['legacy checkout > still charges the card', 'skipped'],
      ['a test outside any describe', 'passed'],
    ]);
  });

  it('hands core why a test failed: the error Jest threw; core finds the line in the test file', () => {
    const { test, testResult } = fileNamed(files, 'cart.test.js');
    const report = mapTestFile(test, testResult);
    const failed = report.tests.find((mapped) => mapped.status === 'failed')!;
    const context = { file: report.file, rootDir: RECORDED_PROJECT, secrets: undefined };
    expect(toFailureDetails(failed.failure, context)).toMatchObject({
      message: 'expect(received).toBe(expected) // Object.is equality\n\nExpected: 3\nReceived: 2',
      stack: expect.stringContaining('cart.test.js:10:19'),
      location: 'cart.test.js:10:19',
    });
    expect(
      report.tests.filter((mapped) => mapped.status !== 'failed').every((mapped) => !mapped.failure),
    ).toBe(true);
  });

  it('gives core where the test is declared, when Jest says (testLocationInResults), for a stack that names no line', () => {
    const { test, testResult } = fileNamed(files, 'cart.test.js');
    const located = {
      ...testResult,
      testResults: testResult.testResults.map((assertion) => ({
        ...assertion,
        failureDetails: [],
        failureMessages: ['Error: thrown from elsewhere\n    at node:internal/x:1:1'],
        location: { line: 9, column: 3 },
      })),
    };
    const failed = mapTestFile(test, located).tests.find((mapped) => mapped.status === 'failed')!;
    const context = { file: testResult.testFilePath, rootDir: RECORDED_PROJECT, secrets: undefined };
    expect(toFailureDetails(failed.failure, context)?.location).toBe('cart.test.js:9:3');
  });

  it("reports a test that another's .only left out skipped", () => {
    const file = fileNamed(files, 'only.test.js');
    expect(file.testResult.testResults.map((test) => test.status)).toEqual(['passed', 'pending']);
    expect(statuses(file)).toEqual([
      ['runs alone', 'passed'],
      ['is left out by the only', 'skipped'],
    ]);
  });

  it("takes Jest's own duration of a test that ran, and 0 where Jest has none (null)", () => {
    const { test, testResult } = fileNamed(files, 'cart.test.js');
    const durations = mapTestFile(test, testResult).tests.map((mapped) => mapped.duration);
    expect(durations).toEqual(testResult.testResults.map((assertion) => assertion.duration ?? 0));
    const skipped = testResult.testResults.find((assertion) => assertion.status === 'pending');
    expect(skipped?.duration).toBeNull();
    expect(durations).not.toContain(null);
  });

  it('reports a test that passed on a retry once, passed, with its attempts', () => {
    const file = fileNamed(files, 'retried.test.js');
    expect(file.testResult.testResults[0]?.invocations).toBe(2);
    expect(statuses(file)).toEqual([['passes on the second attempt', 'passed']]);
    expect(mapTestFile(file.test, file.testResult).tests.map((mapped) => mapped.attempts)).toEqual([2]);
    const atOnce = fileNamed(files, 'cart.test.js');
    expect(mapTestFile(atOnce.test, atOnce.testResult).tests.filter((t) => t.attempts !== undefined)).toEqual(
      [],
    );
  });

  it('keeps the failed tests Jest makes of a failed beforeAll, and a skipped one skipped, without failing the file', () => {
    const { test, testResult } = fileNamed(files, 'setup-fails.test.js');
    expect(statuses({ test, testResult })).toEqual([
      ['database > reads a row', 'failed'],
      ['database > is skipped on purpose', 'skipped'],
      ['runs outside the failing block', 'passed'],
    ]);
    expect(mapTestFile(test, testResult).failedOutsideTests).toBe(false);
  });

  it.each([
    ['throws while imported', 'import-throws.test.js', [], 'this file throws while it is imported', '1:7'],
    ['has a describe body that throws', 'describe-throws.test.js', [], 'the describe body throws', '3:9'],
    [
      'has an afterAll that throws after its test passed',
      'teardown-fails.test.js',
      [['passes before the teardown', 'passed']],
      // Jest hands the afterAll's error as a stack with an empty message: core reads it off the stack.
      'Error: teardown failed',
      '2:9',
    ],
  ])(
    'fails the file outside its tests when it %s, and hands core what failed it',
    (_how, name, tests, message, at) => {
      const file = fileNamed(files, name);
      expect(file.testResult.testExecError).toBeDefined();
      const report = mapTestFile(file.test, file.testResult);
      expect(report.failedOutsideTests).toBe(true);
      expect(statuses(file)).toEqual(tests);
      const context = { file: report.file, rootDir: RECORDED_PROJECT, secrets: undefined };
      expect(toFailureDetails(report.failure, context)).toMatchObject({
        message,
        location: `${name}:${at}`,
      });
    },
  );

  it('says a file that failed only in its tests did not fail outside them', () => {
    const { test, testResult } = fileNamed(files, 'cart.test.js');
    expect(mapTestFile(test, testResult).failedOutsideTests).toBe(false);
  });

  it("names the file by Jest's absolute path and the project by displayName, whichever form Jest gives it", () => {
    const report = (name: string) => {
      const { test, testResult } = fileNamed(files, name);
      return mapTestFile(test, testResult);
    };
    expect(report('cart.test.js').file).toBe(path.join(RECORDED_PROJECT, 'cart.test.js'));
    // Jest turns `displayName: 'unit'` into { name: 'unit', color: 'white' } itself.
    expect(fileNamed(files, 'cart.test.js').test.context.config.displayName).toEqual({
      name: 'unit',
      color: 'white',
    });
    expect(report('cart.test.js').project).toEqual({ name: 'unit', root: RECORDED_PROJECT });
    expect(report('edge.test.js').project).toEqual({ name: 'edge', root: RECORDED_PROJECT });
    expect(report('plain.test.js').project).toEqual({ name: undefined, root: RECORDED_PROJECT });
  });

  it('names no project when Jest gives no Test', () => {
    const { testResult } = fileNamed(files, 'cart.test.js');
    expect(mapTestFile(undefined, testResult).project).toBeUndefined();
  });
});

describe(`mapUnfinishedFile on Jest ${version}'s recorded objects`, () => {
  it('reports the tests a file still running had ended, and nothing about the file', () => {
    const report = mapUnfinishedFile(unfinished.test, unfinished.assertions);
    expect(report.file).toBe(path.join(RECORDED_PROJECT, 'unfinished.test.js'));
    expect(report.tests).toEqual([
      { titles: ['ends first'], status: 'passed', duration: unfinished.assertions[0]!.duration },
    ]);
    expect(report).not.toHaveProperty('failedOutsideTests');
  });

  it('names the project of the Test it is given', () => {
    const { test } = fileNamed(files, 'unfinished.test.js');
    expect(mapUnfinishedFile(test, unfinished.assertions).project).toEqual({
      name: 'unit',
      root: RECORDED_PROJECT,
    });
  });

  // Why reporter.ts keeps the Test of onTestFileStart for mapUnfinishedFile: @jest/core makes
  // the Test of onTestCaseResult from the context of whichever project created the shared
  // test runner (reporter.test.ts proves the reporter names the right project).
  it("is handed by Jest, in a run of several projects, a Test in onTestCaseResult with another project's context", () => {
    const projectOf = (test: { context: { config: { id: string } } }) => test.context.config.id;
    const mismatched = recorded.caseResultTests.filter(
      (test) =>
        projectOf(test) !== projectOf(fileNamed(files, path.relative(RECORDED_PROJECT, test.path)).test),
    );
    expect(mismatched.length).toBeGreaterThan(0);
  });
});
