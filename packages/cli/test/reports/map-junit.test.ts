import { toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { chooseFramework, detectFramework } from '../../src/reports/detect-framework.js';
import { mapSuiteFailure, mapTestcase as mapWith, toMilliseconds } from '../../src/reports/map-junit.js';
import type { JunitHead, JunitTestcase } from '../../src/reports/read-junit.js';
import { ReportPaths } from '../../src/reports/report-paths.js';
import { writerRules } from '../../src/reports/writer-rules.js';

function testcase(fields: Partial<JunitTestcase>): JunitTestcase {
  return {
    name: undefined,
    classname: undefined,
    file: undefined,
    suiteName: undefined,
    suite: 1,
    time: undefined,
    outcome: 'passed',
    line: 1,
    ...fields,
  };
}

/** The checkout the paths of these tests belong to. */
const paths = new ReportPaths('/home/me/shop', '/home/me/shop');

/** Maps a testcase of a report that `framework` wrote (undefined: a report that does not say). */
function mapTestcase(testcase: JunitTestcase, framework?: string) {
  return mapWith(testcase, { rules: writerRules(framework), paths, reportDir: '/home/me/shop' });
}

describe('mapping a testcase whose file is known', () => {
  it('hands the file to core, with the name as the title', () => {
    expect(mapTestcase(testcase({ file: 'src/cart.test.ts', name: 'adds tax', time: '0.25' }))).toEqual({
      kind: 'file',
      file: 'src/cart.test.ts',
      test: { titles: ['adds tax'], status: 'passed', duration: 250 },
    });
  });

  it('puts the classname first, so two classes of one file do not collide', () => {
    const a = mapTestcase(
      testcase({ file: 'tests/test_cart.py', classname: 'tests.test_cart.TestTotals', name: 'test_sum' }),
    );
    const b = mapTestcase(
      testcase({ file: 'tests/test_cart.py', classname: 'tests.test_cart.TestCheckout', name: 'test_sum' }),
    );
    expect([a, b].map((mapped) => mapped.kind === 'file' && mapped.test.titles)).toEqual([
      ['TestTotals', 'test_sum'],
      ['TestCheckout', 'test_sum'],
    ]);
  });

  it('keeps a describe chain written as the classname (jest-junit with classNameTemplate "{classname}")', () => {
    const mapped = mapTestcase(
      testcase({ file: 'cart.test.js', classname: 'cart > totals', name: 'sums line items' }),
    );
    expect(mapped).toMatchObject({ test: { titles: ['cart > totals', 'sums line items'] } });
  });

  it.each([
    ['empty', { classname: '' }, 'adds tax'],
    ['the file itself', { classname: 'cart.test.js' }, 'adds tax'],
    ['the file as a module', { file: 'tests/test_util.py', classname: 'tests.test_util' }, 'adds tax'],
    [
      'the whole name (jest-junit default templates)',
      { classname: 'cart totals adds tax', name: 'cart totals adds tax' },
      'cart totals adds tax',
    ],
    [
      'the end of the name (mocha-junit-reporter)',
      { classname: 'adds tax', name: 'cart totals adds tax' },
      'cart totals adds tax',
    ],
  ])('leaves out a classname that is %s', (_, fields: Partial<JunitTestcase>, title) => {
    const mapped = mapTestcase(testcase({ file: 'cart.test.js', name: 'adds tax', ...fields }));
    expect(mapped).toMatchObject({ kind: 'file', test: { titles: [title] } });
  });

  it('sends a testcase without a name with an empty title, which core shows as (unnamed)', () => {
    expect(mapTestcase(testcase({ file: 'a.test.js', classname: 'Suite' }))).toMatchObject({
      test: { titles: ['Suite', ''] },
    });
  });
});

describe('mapping a testcase without a file', () => {
  it('names the suite after the classname and the case after the name', () => {
    expect(
      mapTestcase(
        testcase({
          classname: 'com.example.CartTest',
          suiteName: 'com.example.CartTest',
          name: 'addsTax',
          time: '0.012',
        }),
      ),
    ).toEqual({
      kind: 'named',
      result: { testSuite: 'com.example.CartTest', testCase: 'addsTax', status: 'passed', duration: 12 },
    });
  });

  it('falls back to the suite name when there is no classname, or it only repeats the name', () => {
    const none = mapTestcase(testcase({ suiteName: 'go/pkg', name: 'TestA' }));
    const repeated = mapTestcase(
      testcase({ suiteName: 'cart', classname: 'cart adds tax', name: 'cart adds tax' }),
    );
    expect([none, repeated]).toMatchObject([
      { kind: 'named', result: { testSuite: 'go/pkg', testCase: 'TestA' } },
      { kind: 'named', result: { testSuite: 'cart', testCase: 'cart adds tax' } },
    ]);
  });

  it('leaves the suite undefined when nothing names it; core sends (unnamed)', () => {
    expect(mapTestcase(testcase({ name: 'lonely' }))).toMatchObject({ result: { testSuite: undefined } });
  });

  it('maps each outcome to its status', () => {
    const statuses = (['passed', 'failed', 'skipped'] as const).map((outcome) => {
      const mapped = mapTestcase(testcase({ classname: 'C', name: 'n', outcome }));
      return mapped.kind === 'named' && mapped.result.status;
    });
    expect(statuses).toEqual(['passed', 'failed', 'skipped']);
  });
});

describe('a testcase that stands for its whole file', () => {
  it('is (file failed to run) when a failed testcase is named like its file (Vitest)', () => {
    const fields = {
      classname: 'import-throws.test.js',
      name: 'import-throws.test.js',
      outcome: 'failed',
    } as const;
    const expected = {
      kind: 'named',
      result: { testSuite: 'import-throws.test.js', testCase: '(file failed to run)', status: 'failed' },
    };
    expect(mapTestcase(testcase({ ...fields, suiteName: 'import-throws.test.js' }), 'vitest')).toMatchObject(
      expected,
    );
    expect(mapTestcase(testcase(fields), 'vitest')).toMatchObject(expected);
  });

  it('is (file failed to run) for a Surefire class whose setup failed, named like the class', () => {
    const mapped = mapTestcase(
      testcase({
        classname: 'com.example.DbTest',
        suiteName: 'com.example.DbTest',
        name: 'com.example.DbTest',
        outcome: 'failed',
      }),
      'surefire',
    );
    expect(mapped).toMatchObject({
      result: { testSuite: 'com.example.DbTest', testCase: '(file failed to run)' },
    });
  });

  it("is (file failed to run) for jest-junit's load failure, even without a file attribute", () => {
    const withFile = mapTestcase(
      testcase({
        file: 'a.test.js',
        classname: 'Test suite failed to run',
        name: 'a.test.js',
        outcome: 'failed',
      }),
    );
    const withoutFile = mapTestcase(
      testcase({ classname: 'Test suite failed to run', name: 'a.test.js', outcome: 'failed' }),
    );
    const expected = {
      kind: 'file',
      file: 'a.test.js',
      test: { titles: ['(file failed to run)'], status: 'failed' },
    };
    expect([withFile, withoutFile]).toMatchObject([expected, expected]);
  });

  it("is (file failed to run) for jest-junit's hook failure testcase", () => {
    const mapped = mapTestcase(
      testcase({
        file: 'teardown.test.js',
        classname: '',
        name: "Test execution failure: could be caused by test hooks like 'afterAll'.",
        outcome: 'failed',
      }),
    );
    expect(mapped).toMatchObject({ test: { titles: ['(file failed to run)'] } });
  });

  it('is (file failed to run) for a pytest module that failed to collect, named after the module', () => {
    const mapped = mapTestcase(
      testcase({ classname: '', suiteName: 'pytest', name: 'tests.test_search', outcome: 'failed' }),
    );
    const withFile = mapTestcase(
      testcase({
        file: 'tests/test_search.py',
        classname: '',
        suiteName: 'pytest',
        name: 'tests.test_search',
        outcome: 'failed',
      }),
    );
    expect([mapped, withFile]).toMatchObject([
      { kind: 'named', result: { testSuite: 'tests.test_search', testCase: '(file failed to run)' } },
      { kind: 'file', test: { titles: ['(file failed to run)'] } },
    ]);
  });

  it('is a plain test when it passed, or is named otherwise', () => {
    const passed = mapTestcase(testcase({ classname: 'a.test.js', name: 'a.test.js', outcome: 'passed' }));
    const describeFailure = mapTestcase(
      testcase({ classname: 'a.test.js', name: 'database', outcome: 'failed' }),
    );
    expect([passed, describeFailure]).toMatchObject([
      { result: { testCase: 'a.test.js' } },
      { result: { testCase: 'database', status: 'failed' } },
    ]);
  });
});

describe('mapping a suite that failed on its own', () => {
  it('is one failed (file failed to run) result when none of its testcases failed', () => {
    expect(mapSuiteFailure({ name: 'broken.spec.js', file: undefined, line: 3, failedTestcases: 0 })).toEqual(
      {
        kind: 'named',
        result: {
          testSuite: 'broken.spec.js',
          testCase: '(file failed to run)',
          status: 'failed',
          duration: 0,
        },
      },
    );
    expect(mapSuiteFailure({ name: 'x', file: 'spec/x.spec.js', line: 3, failedTestcases: 0 })).toEqual({
      kind: 'file',
      file: 'spec/x.spec.js',
      test: { titles: ['(file failed to run)'], status: 'failed', duration: 0 },
    });
  });

  it('adds nothing when a testcase of it failed already', () => {
    expect(mapSuiteFailure({ name: 'x', file: undefined, line: 3, failedTestcases: 2 })).toBeUndefined();
  });
});

describe('durations', () => {
  it.each([
    ['0.012', 12],
    ['1', 1000],
    ['.5', 500],
    ['3.', 3000],
    [' 2.5 ', 2500],
    ['1,204.101', 1_204_101],
    ['1,234,567', 1_234_567_000],
    // A single decimal comma, as localized .NET conversions write it.
    ['0,014', 14],
    ['1,5', 1500],
  ])('reads time="%s" seconds as %d ms', (time, ms) => {
    expect(toMilliseconds(time)).toBeCloseTo(ms, 6);
  });

  it('leaves a missing time undefined; core sends it as 0', () => {
    expect([toMilliseconds(undefined), toMilliseconds(''), toMilliseconds('  ')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  // More than 24.8 days (core's MAX_DURATION_MS) is no test's time either.
  it.each([
    'soon',
    '-1',
    '0x10',
    '1e3',
    '1E-3',
    'Infinity',
    'NaN',
    '1.2.3',
    '1,2,3',
    '1,23.4',
    '0.5s',
    '2,147,484',
    '9'.repeat(400),
  ])('reads time="%s" as an unknown duration (NaN), never as another number', (time) => {
    expect(toMilliseconds(time)).toBeNaN();
  });
});

describe('what only some writers mean', () => {
  it('keeps a failed testcase named like its suite as that testcase where the writer does not write file failures so (Bazel)', () => {
    const target = { suiteName: '//shop/cart:cart_test', name: '//shop/cart:cart_test' };
    const passing = mapTestcase(testcase(target));
    const failing = mapTestcase(testcase({ ...target, outcome: 'failed' }));
    expect([passing, failing]).toMatchObject([
      { result: { testSuite: '//shop/cart:cart_test', testCase: '//shop/cart:cart_test', status: 'passed' } },
      { result: { testSuite: '//shop/cart:cart_test', testCase: '//shop/cart:cart_test', status: 'failed' } },
    ]);
  });

  it('reads the same failed testcase as (file failed to run) only from Vitest and Surefire', () => {
    const fields = {
      classname: 'a.test.js',
      suiteName: 'a.test.js',
      name: 'a.test.js',
      outcome: 'failed',
    } as const;
    expect(
      [undefined, 'jest', 'vitest', 'surefire'].map((framework) => {
        const mapped = mapTestcase(testcase(fields), framework);
        return mapped.kind === 'named' && mapped.result.testCase;
      }),
    ).toEqual(['a.test.js', 'a.test.js', '(file failed to run)', '(file failed to run)']);
  });

  it('marks the attempts of one test only for writers that write a rerun as the testcase again', () => {
    const attempt = { classname: 'tests.test_cart', name: 'test_flaky', suiteName: 'pytest', suite: 1 };
    const keys = (framework?: string) => [
      mapTestcase(testcase(attempt), framework).attemptsOf,
      mapTestcase(testcase({ ...attempt, outcome: 'failed' }), framework).attemptsOf,
      mapTestcase(testcase({ ...attempt, suite: 2 }), framework).attemptsOf,
    ];
    const [first, again, otherSuite] = keys('pytest');
    expect(first).toBeDefined();
    expect(again).toBe(first);
    expect(otherSuite).not.toBe(first);
    expect(keys('gradle')[0]).toBeDefined();
    expect([...keys(undefined), ...keys('surefire'), ...keys('vitest')]).toEqual(Array(9).fill(undefined));
    expect(mapTestcase(testcase({ classname: 'tests.test_cart' }), 'pytest').attemptsOf).toBeUndefined();
  });
});

describe('paths written on Windows or on another machine', () => {
  it('hands core a file attribute with / separators, and drops the module from a pytest classname', () => {
    const mapped = mapTestcase(
      testcase({ file: 'tests\\test_cart.py', classname: 'tests.test_cart.TestCart', name: 'test_total' }),
    );
    expect(mapped).toMatchObject({
      kind: 'file',
      file: 'tests/test_cart.py',
      test: { titles: ['TestCart', 'test_total'] },
    });
  });

  it('names a test by a classname that is a path, relative and with / separators (Nette Tester on Windows)', () => {
    const path = 'C:\\ci\\shop\\tests\\Cart.phpt';
    const relative = mapTestcase(
      testcase({ classname: 'tests\\Cart.phpt', name: 'tests\\Cart.phpt', outcome: 'failed' }),
    );
    const absolute = mapTestcase(testcase({ classname: path, name: path }));
    expect([relative, absolute]).toMatchObject([
      {
        kind: 'named',
        result: { testSuite: 'tests/Cart.phpt', testCase: 'tests/Cart.phpt', status: 'failed' },
      },
      {
        kind: 'named',
        result: { testSuite: 'tests/Cart.phpt', testCase: 'tests/Cart.phpt', status: 'passed' },
      },
    ]);
  });

  it('turns the path at the start of a classname into a name, leaving what follows it (Nette Tester methods)', () => {
    const signature = 'tests\\Cart.phpt method=testAdds';
    expect(mapTestcase(testcase({ classname: signature, name: signature }))).toMatchObject({
      result: { testSuite: 'tests/Cart.phpt method=testAdds', testCase: 'tests/Cart.phpt method=testAdds' },
    });
  });

  it('leaves classnames that are not paths as they are: PHP namespaces, Java classes, Go packages', () => {
    const suites = ['Tests\\Unit\\CartTest', 'com.example.CartTest', 'gopkg.in/yaml.v3'].map((classname) => {
      const mapped = mapTestcase(testcase({ classname, name: 'x' }));
      return mapped.kind === 'named' && mapped.result.testSuite;
    });
    expect(suites).toEqual(['Tests\\Unit\\CartTest', 'com.example.CartTest', 'gopkg.in/yaml.v3']);
  });
});

describe('telling which framework wrote a report', () => {
  const head = (
    root: Record<string, string>,
    firstSuite?: Record<string, string>,
    rootName = 'testsuites',
  ): JunitHead => ({
    root: { name: rootName, attributes: root, isSelfClosing: false },
    firstSuite: firstSuite && { name: 'testsuite', attributes: firstSuite, isSelfClosing: false },
  });

  it.each([
    ['vitest', head({ name: 'vitest tests' }, { name: 'a.test.ts' })],
    ['jest', head({ name: 'jest tests' }, { name: 'cart' })],
    ['mocha', head({ name: 'Mocha Tests' })],
    ['pytest', head({ name: 'pytest tests' }, { name: 'pytest' })],
    [
      'surefire',
      head(
        {
          name: 'com.example.CartTest',
          'xsi:noNamespaceSchemaLocation':
            'https://maven.apache.org/surefire/maven-surefire-plugin/xsd/surefire-test-report-3.0.2.xsd',
        },
        undefined,
        'testsuite',
      ),
    ],
    [
      'gradle',
      head(
        {
          name: 'com.example.CartTest',
          tests: '3',
          skipped: '0',
          failures: '1',
          errors: '0',
          timestamp: '2026-05-04T10:12:33',
          hostname: 'runner-7f3c',
          time: '0.045',
        },
        undefined,
        'testsuite',
      ),
    ],
  ])('recognises %s', (framework, reportHead) => {
    expect(detectFramework(reportHead)).toBe(framework);
  });

  it('says nothing for a report without a known mark', () => {
    expect(detectFramework(head({ tests: '3' }, { name: 'com.example.CartTest' }))).toBeUndefined();
    // Gradle's attributes in another order: Ant, old Surefire.
    const ant = {
      name: 'com.example.CartTest',
      time: '0.1',
      tests: '3',
      errors: '0',
      skipped: '0',
      failures: '1',
    };
    expect(detectFramework(head(ant, undefined, 'testsuite'))).toBeUndefined();
  });

  it('uses what every report agrees on, else junit', () => {
    expect(chooseFramework(['pytest', 'pytest'])).toBe('pytest');
    expect(chooseFramework(['pytest', undefined])).toBe('junit');
    expect(chooseFramework(['pytest', 'surefire'])).toBe('junit');
    expect(chooseFramework([undefined])).toBe('junit');
  });
});

describe('why a testcase failed', () => {
  it('goes to core as the <failure> message with its text as the stack, or the text alone', () => {
    const withMessage = mapTestcase(
      testcase({
        file: 'src/cart.test.ts',
        name: 'adds',
        outcome: 'failed',
        failure: { message: 'expected 2', text: 'AssertionError: expected 2\n    at src/cart.test.ts:4:7' },
      }),
    );
    const context = { file: '/home/me/shop/src/cart.test.ts', rootDir: '/home/me/shop', secrets: undefined };
    expect(withMessage.kind === 'file' && toFailureDetails(withMessage.test.failure, context)).toEqual({
      message: 'expected 2',
      stack: 'AssertionError: expected 2\n    at src/cart.test.ts:4:7',
    });
    const textOnly = mapTestcase(
      testcase({
        classname: 'Cart',
        name: 'adds',
        outcome: 'failed',
        failure: { message: undefined, text: 'boom\n  at x' },
      }),
    );
    expect(textOnly.kind === 'named' && toFailureDetails(textOnly.result.failure, context)?.message).toBe(
      'boom',
    );
  });

  it('is nothing for a passed testcase, or an empty <failure/>', () => {
    const empty = mapTestcase(
      testcase({ name: 'a', outcome: 'failed', failure: { message: undefined, text: ' ' } }),
    );
    expect(empty.kind === 'named' && empty.result.failure).toBeUndefined();
  });
});
