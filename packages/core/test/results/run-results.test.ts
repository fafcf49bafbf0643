import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretPattern } from '../../src/output/redact.js';
import { filesOf } from '../../src/results/attached-files.js';
import { createResultMapper } from '../../src/results/map-result.js';
import { type RunNaming, RunResults } from '../../src/results/run-results.js';
import type { FileReport, ResultInfo, TestResult, TestrunOptions } from '../../src/types.js';

// What a run's file reports and errors outside any file become, whichever adapter hands
// them over: the naming rules of docs/design/naming.md#result-identity, without a server.

const repo = path.resolve('/repo');
const at = (...parts: string[]) => path.join(repo, ...parts);

function runResults(naming: Partial<RunNaming> = {}, mapResult?: TestrunOptions['mapResult']) {
  const map = createResultMapper({
    statusMap: { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' },
    durationUnit: 'ms',
    mapResult,
    framework: 'jest',
    log: () => {},
  });
  return new RunResults({ rootDir: repo, projectLabel: 'auto', ...naming }, map);
}

const names = (results: readonly TestResult[]) => results.map((r) => `${r.testSuite} | ${r.testCase}`);
const suites = (results: readonly TestResult[]) => results.map((r) => r.testSuite);

const inProjects = (projects: string[], titles = ['adds']): FileReport[] =>
  projects.map((name) => ({
    file: at('src', 'a.test.ts'),
    project: { name, root: repo },
    tests: [{ titles, status: 'passed' }],
  }));

describe('a file report', () => {
  it('becomes one result per test, named by path and describe chain, with its status and duration', () => {
    const results = runResults().ofFile({
      file: at('src', 'cart.test.ts'),
      tests: [
        { titles: ['cart', 'adds'], status: 'passed', duration: 12.5 },
        { titles: ['cart', 'later'], status: 'todo' },
      ],
    });
    expect(results).toEqual([
      { testSuite: 'src/cart.test.ts', testCase: 'cart > adds', status: 'passed', duration: 12.5 },
      { testSuite: 'src/cart.test.ts', testCase: 'cart > later', status: 'skipped', duration: 0 },
    ]);
  });
});

describe('project labels', () => {
  it('label each result with its project when the configuration defines several (auto)', () => {
    const stage = runResults({ projectCount: 2 });
    expect(inProjects(['node', 'edge']).flatMap((report) => suites(stage.ofFile(report)))).toEqual([
      '[node] src/a.test.ts',
      '[edge] src/a.test.ts',
    ]);
  });

  it('count the projects when each file is named, for an adapter that learns them after the run started', () => {
    let count: number | undefined;
    const stage = runResults({ projectCount: () => count });
    const [node, edge] = inProjects(['node', 'edge']);
    expect(suites(stage.ofFile(node!))).toEqual(['src/a.test.ts']);
    count = 2;
    expect(suites(stage.ofFile(edge!))).toEqual(['[edge] src/a.test.ts']);
  });

  it('leave a single-project run unlabelled, even when its project has a name (auto)', () => {
    for (const projectCount of [1, undefined]) {
      const [report] = inProjects(['node']);
      expect(suites(runResults({ projectCount }).ofFile(report!))).toEqual(['src/a.test.ts']);
    }
  });

  it('label a single named project with always, and no project with never', () => {
    const [node] = inProjects(['node']);
    expect(suites(runResults({ projectCount: 1, projectLabel: 'always' }).ofFile(node!))).toEqual([
      '[node] src/a.test.ts',
    ]);
    const never = runResults({ projectCount: 2, projectLabel: 'never' });
    expect(inProjects(['node', 'edge']).flatMap((report) => suites(never.ofFile(report)))).toEqual([
      'src/a.test.ts',
      'src/a.test.ts',
    ]);
  });

  it('leave a file of an unnamed project unlabelled, even with always', () => {
    const results = runResults({ projectLabel: 'always' }).ofFile({
      file: at('src', 'a.test.ts'),
      project: { root: repo },
      tests: [{ titles: ['adds'], status: 'passed' }],
    });
    expect(suites(results)).toEqual(['src/a.test.ts']);
  });

  it('give mapResult the file, the project and the framework, labelled or not', () => {
    const infos: ResultInfo[] = [];
    const stage = runResults({ projectCount: 2, projectLabel: 'never' }, (result, info) => {
      infos.push(info);
      return result;
    });
    for (const report of inProjects(['node', 'edge'])) stage.ofFile(report);
    expect(infos).toEqual([
      { file: at('src', 'a.test.ts'), project: 'node', framework: 'jest' },
      { file: at('src', 'a.test.ts'), project: 'edge', framework: 'jest' },
    ]);
  });
});

describe('a file run a second way in the same project', () => {
  it('has its variant after the path and the project before it', () => {
    const stage = runResults({ projectCount: 2 });
    const results = [undefined, 'typecheck'].flatMap((variant) =>
      stage.ofFile({
        file: at('src', 'a.test.ts'),
        project: { name: 'node' },
        variant,
        tests: [{ titles: ['adds'], status: 'passed' }],
      }),
    );
    expect(suites(results)).toEqual(['[node] src/a.test.ts', '[node] src/a.test.ts (typecheck)']);
  });
});

describe('a file that failed outside its tests', () => {
  const file = at('src', 'b.test.ts');

  it('gets one failed (file failed to run) beside its passing tests', () => {
    const results = runResults().ofFile({
      file,
      tests: [{ titles: ['passes'], status: 'passed', duration: 3 }],
      failedOutsideTests: true,
    });
    expect(results).toEqual([
      { testSuite: 'src/b.test.ts', testCase: 'passes', status: 'passed', duration: 3 },
      {
        testSuite: 'src/b.test.ts',
        testCase: '(file failed to run)',
        status: 'failed',
        duration: 0,
        details: { message: 'the file failed outside its tests; the runner reported no error for it' },
      },
    ]);
  });

  it('gets one however often it is reported again with no tests', () => {
    const stage = runResults();
    const results = [
      { file, tests: [{ titles: ['passes'], status: 'passed' as const }] },
      { file, tests: [], failedOutsideTests: true },
      { file, tests: [], failedOutsideTests: true },
    ].flatMap((report) => stage.ofFile(report));
    expect(names(results)).toEqual(['src/b.test.ts | passes', 'src/b.test.ts | (file failed to run)']);
  });

  it('gets none when one of its tests failed, in the same report or an earlier one', () => {
    const together = runResults().ofFile({
      file,
      tests: [{ titles: ['fails'], status: 'failed' }],
      failedOutsideTests: true,
    });
    expect(names(together)).toEqual(['src/b.test.ts | fails']);

    const stage = runResults();
    const apart = [
      { file, tests: [{ titles: ['fails'], status: 'failed' as const }] },
      { file, tests: [], failedOutsideTests: true },
    ].flatMap((report) => stage.ofFile(report));
    expect(names(apart)).toEqual(['src/b.test.ts | fails']);
  });

  it('gets one per project that failed, not one for the file', () => {
    const stage = runResults({ projectCount: 2 });
    const results = ['node', 'edge'].flatMap((name) =>
      stage.ofFile({ file, project: { name }, tests: [], failedOutsideTests: true }),
    );
    expect(names(results)).toEqual([
      '[node] src/b.test.ts | (file failed to run)',
      '[edge] src/b.test.ts | (file failed to run)',
    ]);
  });

  it('is named again by a new run: what a run remembers is its own', () => {
    const report = { file, tests: [], failedOutsideTests: true };
    const first = runResults();
    first.ofFile(report);
    expect(first.ofFile(report)).toEqual([]);
    expect(names(runResults().ofFile(report))).toEqual(['src/b.test.ts | (file failed to run)']);
  });
});

describe('errors outside any file', () => {
  it('become failed (run) results, one per distinct first line', () => {
    const results = runResults().ofRunErrors([
      'Error: worker exited\n    at x.js:1',
      'Error: worker exited\n    at y.js:2',
      'TypeError: no',
    ]);
    expect(results).toEqual([
      {
        testSuite: '(run)',
        testCase: '(unhandled error) Error: worker exited',
        status: 'failed',
        duration: 0,
        details: { message: 'Error: worker exited', stack: 'Error: worker exited\n    at x.js:1' },
      },
      {
        testSuite: '(run)',
        testCase: '(unhandled error) TypeError: no',
        status: 'failed',
        duration: 0,
        details: { message: 'TypeError: no' },
      },
    ]);
  });

  it('are at most five results, and one more at the end counting the rest', () => {
    const stage = runResults();
    const results = stage.ofRunErrors(Array.from({ length: 9 }, (_, i) => `Error ${i}`));
    expect(results.map((r) => r.testCase)).toEqual(
      [0, 1, 2, 3, 4].map((i) => `(unhandled error) Error ${i}`),
    );
    expect(stage.ofUncountedRunErrors()).toEqual([
      {
        testSuite: '(run)',
        testCase: '(unhandled error) 4 more errors',
        status: 'failed',
        duration: 0,
        details: {
          message:
            '4 more errors outside any test and file: a run reports at most 5 of them as results of their own',
        },
      },
    ]);
  });

  it('count across calls, without their colours: an adapter may hand them over one at a time', () => {
    const stage = runResults();
    const results = [0, 1, 1, 2, 3, 4, 5, 6].flatMap((i) =>
      stage.ofRunErrors([`\u001b[31mError ${i}\u001b[39m\n    at x.js:1:1`]),
    );
    expect([...results, ...stage.ofUncountedRunErrors()].map((r) => r.testCase)).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => `(unhandled error) Error ${i}`),
      '(unhandled error) 2 more errors',
    ]);
  });

  it('add nothing at the end when none went beyond five', () => {
    const stage = runResults();
    stage.ofRunErrors(['Error 1', 'Error 2']);
    expect(stage.ofUncountedRunErrors()).toEqual([]);
  });
});

describe("the runner's own verdict at the run's end", () => {
  const passed = { file: at('a.test.ts'), tests: [{ titles: ['adds'], status: 'passed' as const }] };

  it('adds a failed (run) result for each reason the adapter gave, whatever else failed', () => {
    const stage = runResults({ framework: 'testcafe' });
    stage.ofFile({ ...passed, tests: [{ titles: ['breaks'], status: 'failed' }] });
    expect(
      stage.ofVerdict({ why: ['The Chrome browser disconnected.\nTestCafe counted 3 tests'] }),
    ).toMatchObject([
      {
        testSuite: '(run)',
        testCase: '(unhandled error) The Chrome browser disconnected.',
        status: 'failed',
        details: { message: 'The Chrome browser disconnected.\nTestCafe counted 3 tests' },
      },
    ]);
  });

  it('says a run the runner failed with no reason and no failed result failed outside its tests', () => {
    const stage = runResults({ framework: 'jest' });
    stage.ofFile(passed);
    expect(names(stage.ofVerdict({ failed: true }))).toEqual([
      '(run) | (unhandled error) jest failed the run outside its tests and gave no error for it; its output says why',
    ]);
  });

  it('adds nothing where a failed result already says the run failed, the run passed, or it was interrupted', () => {
    const failedTest = runResults();
    failedTest.ofFile({ ...passed, tests: [{ titles: ['breaks'], status: 'failed' }] });
    const failedFile = runResults();
    failedFile.ofFile({ ...passed, tests: [], failedOutsideTests: true });
    const runError = runResults();
    runError.ofRunErrors(['Error: worker exited']);
    expect(failedTest.ofVerdict({ failed: true })).toEqual([]);
    expect(failedFile.ofVerdict({ failed: true })).toEqual([]);
    expect(runError.ofVerdict({ failed: true })).toEqual([]);
    expect(runResults().ofVerdict({})).toEqual([]);
    expect(runResults().ofVerdict({ failed: true, interrupted: true })).toEqual([]);
  });

  it('names a reason said before once, and counts reasons beyond five like other run errors', () => {
    const stage = runResults();
    stage.ofRunErrors(['Error: browser disconnected']);
    expect(stage.ofVerdict({ why: ['Error: browser disconnected'] })).toEqual([]);
    stage.ofVerdict({ why: ['1', '2', '3', '4', '5', '6'].map((n) => `Error ${n}`) });
    expect(names(stage.ofUncountedRunErrors())).toEqual(['(run) | (unhandled error) 2 more errors']);
  });
});

describe('results an adapter named itself', () => {
  it('are cleaned and go through mapResult, which may drop them', () => {
    const stage = runResults({}, (result) => (result.testCase === 'drop me' ? null : result));
    const results = stage.ofNamed(
      [
        { testSuite: 'a.xml', testCase: 'keeps\nme', status: 'todo', duration: Number.NaN },
        { testSuite: 'a.xml', testCase: 'drop me', status: 'passed' },
      ],
      {},
    );
    expect(results).toEqual([{ testSuite: 'a.xml', testCase: 'keeps me', status: 'skipped', duration: 0 }]);
  });
});

describe('why a test failed', () => {
  const file = at('src', 'cart.test.ts');
  const stack = `AssertionError: expected 1 to be 2\n    at ${file}:14:9\n    at run (${at('node_modules', 'x.js')}:1:1)`;

  it("goes with a failed test: message, stack, the test file's line in the stack, attempts", () => {
    const [failed, passed] = runResults().ofFile({
      file,
      tests: [
        {
          titles: ['adds'],
          status: 'failed',
          failure: { errors: [{ message: 'expected 1 to be 2', stack }], attempts: 2 },
        },
        { titles: ['keeps'], status: 'passed', failure: { errors: ['not a failure'] } },
      ],
    });
    expect(failed!.details).toEqual({
      message: 'expected 1 to be 2',
      stack,
      location: 'src/cart.test.ts:14:9',
      attempts: 2,
    });
    expect(passed).not.toHaveProperty('details');
  });

  it('goes with a test that passed on a retry as its attempts alone, and not with one that passed at once', () => {
    const [retried, atOnce, skipped] = runResults().ofFile({
      file,
      tests: [
        { titles: ['retried'], status: 'passed', attempts: 3 },
        { titles: ['at once'], status: 'passed', attempts: 1 },
        { titles: ['skipped'], status: 'skipped', attempts: 2 },
      ],
    });
    expect(retried!.details).toEqual({ attempts: 3 });
    expect(atOnce).not.toHaveProperty('details');
    expect(skipped).not.toHaveProperty('details');
  });

  it("stays home for a passed test with failureDetails 'never'", () => {
    const [retried] = runResults({ failureDetails: false }).ofFile({
      file,
      tests: [{ titles: ['retried'], status: 'passed', attempts: 3 }],
    });
    expect(retried).not.toHaveProperty('details');
  });

  it('follows what mapResult returns, and goes when it drops the result', () => {
    const mapped = runResults({}, (result) =>
      result.testCase === 'b' ? null : { ...result, testCase: 'A' },
    );
    const results = mapped.ofFile({
      file,
      tests: [
        { titles: ['a'], status: 'failed', failure: { errors: ['boom'] } },
        { titles: ['b'], status: 'failed', failure: { errors: ['gone'] } },
      ],
    });
    expect(results).toEqual([
      {
        testSuite: 'src/cart.test.ts',
        testCase: 'A',
        status: 'failed',
        duration: 0,
        details: { message: 'boom' },
      },
    ]);
  });

  it('never holds the API key, even when a test prints it in an assertion', () => {
    const key = 'sk-live-0123456789';
    const [result] = runResults({ secrets: secretPattern([key]) }).ofFile({
      file,
      tests: [
        {
          titles: ['auth'],
          status: 'failed',
          failure: {
            errors: [{ message: `expected "${key}" to be "x"`, stack: `Error: ${key}\n    at ${file}:3:1` }],
          },
        },
      ],
    });
    expect(JSON.stringify(result)).not.toContain(key);
    expect(result!.details?.message).toBe('expected "***" to be "x"');
  });

  it('goes with (file failed to run), from what failed the file', () => {
    const [result] = runResults().ofFile({
      file,
      tests: [],
      failedOutsideTests: true,
      failure: { errors: [{ message: 'cannot import', stack: `Error: cannot import\n    at ${file}:1:7` }] },
    });
    expect(result).toMatchObject({
      testCase: '(file failed to run)',
      details: { message: 'cannot import', location: 'src/cart.test.ts:1:7' },
    });
  });

  it('says what is known when the runner gave no error with a message: the test, the file or the run failed, and which runner said nothing', () => {
    const stage = runResults({ framework: 'vitest' });
    const results = [
      ...stage.ofFile({
        file,
        tests: [{ titles: ['a'], status: 'failed', failure: { errors: [{ message: '' }], attempts: 2 } }],
      }),
      ...stage.ofFile({ file: at('src', 'b.test.ts'), tests: [], failedOutsideTests: true }),
      ...stage.ofRunErrors(['']),
    ];
    expect(results.map((result) => [result.testCase, result.details])).toEqual([
      ['a', { message: 'the test failed; vitest reported no error for it', attempts: 2 }],
      [
        '(file failed to run)',
        { message: 'the file failed outside its tests; vitest reported no error for it' },
      ],
      ['(unhandled error)', { message: 'an error outside any test and file; vitest gave no message for it' }],
    ]);
  });

  it("is not made with failureDetails: 'never'", () => {
    const [result] = runResults({ failureDetails: false }).ofFile({
      file,
      tests: [{ titles: ['a'], status: 'failed', failure: { errors: ['boom'] } }],
    });
    expect(result).not.toHaveProperty('details');
  });
});

describe('the files a test attached', () => {
  const file = { name: 'screenshot', path: '/tmp/shot.png' };
  const tests = [
    { titles: ['fails'], status: 'failed' as const, attachments: [file] },
    { titles: ['passes on a retry'], status: 'passed' as const, attempts: 2, attachments: [file] },
    { titles: ['passes'], status: 'passed' as const, attachments: [file] },
    { titles: ['is skipped'], status: 'skipped' as const, attachments: [file] },
  ];
  const kept = (attachments?: 'failed' | 'all' | 'none') =>
    runResults(attachments ? { attachments } : {})
      .ofFile({ file: path.join(repo, 'a.test.ts'), tests })
      .map((result) => [result.testCase, filesOf(result)?.length ?? 0]);

  it("go with a failed test and a pass on a retry ('failed'), every test ('all'), none ('none', or unsaid)", () => {
    expect(kept('failed')).toEqual([
      ['fails', 1],
      ['passes on a retry', 1],
      ['passes', 0],
      ['is skipped', 0],
    ]);
    expect(kept('all').map(([, count]) => count)).toEqual([1, 1, 1, 1]);
    expect(kept('none').map(([, count]) => count)).toEqual([0, 0, 0, 0]);
    expect(kept().map(([, count]) => count)).toEqual([0, 0, 0, 0]);
  });

  it('go beside the result, never in what it sends, and follow what mapResult returns', () => {
    const [result] = runResults({ attachments: 'all' }, (mapped) => ({
      ...mapped,
      testCase: 'renamed',
    })).ofFile({
      file: path.join(repo, 'a.test.ts'),
      tests: [tests[2]!],
    });
    expect(JSON.stringify(result)).toBe(
      '{"testSuite":"a.test.ts","testCase":"renamed","status":"passed","duration":0}',
    );
    expect(filesOf(result!)).toEqual([file]);
  });
});
