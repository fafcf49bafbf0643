import type { StoredResult } from '@testrun/server';
import {
  AWAIT_RUNS_TIMEOUT_MS,
  fixtures,
  REPORTER_OPTIONS_VAR,
  type RunOutcome,
  reporterEnv,
  runJest,
  runVitest,
  startTestServer,
  type TestServer,
} from '@testrun/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The same test files run under Vitest and under Jest must land in the service as the
// same results. `todo` is sent as itself here (it is 'skipped' by default) to check it too.
const OPTIONS = JSON.stringify({ statusMap: { todo: 'todo' } });

type Expected = Pick<StoredResult, 'testSuite' | 'testCase' | 'status'>;

const EXPECTED: Expected[] = [
  ...suite('cart.test.js', [
    ['cart > totals > sums line items', 'passed'],
    ['cart > totals > applies a percentage discount', 'passed'],
    ['cart > totals > rounds half cents to even', 'skipped'],
    ['cart > totals > supports gift cards', 'todo'],
    ['cart > fails on purpose', 'failed'],
    ['legacy checkout > still charges the card', 'skipped'],
    ['legacy checkout > with coupons > ignores expired coupons', 'skipped'],
    ['a test outside any describe', 'passed'],
  ]),
  ...suite('each.test.js', [
    ['add > add(1, 1) = 2', 'passed'],
    ['add > add(2, 3) = 5', 'passed'],
    ['2 is 2.7 truncated', 'passed'],
    ['upper(abc) is ABC', 'passed'],
    ['upper(é) is É', 'passed'],
    ['-2 is a number (row 0)', 'passed'],
    ['0 is a number (row 1)', 'passed'],
    ['1 + 2 returns 3', 'passed'],
    ['4 + 5 returns 9', 'passed'],
    ['currency eur > has three letters', 'passed'],
    ['currency usd > has three letters', 'passed'],
    ['formats { x: 1 } as a string', 'passed'],
    ['formats null as a string', 'passed'],
    ['formats undefined as a string', 'passed'],
    ['formats text as a string', 'passed'],
    ['formats true as a string', 'passed'],
    ['formats {"a":1} as JSON', 'passed'],
    ['formats [1,2] as JSON', 'passed'],
  ]),
  ...suite('names.test.js', [
    ['ünïcödé names > naïve café crème brûlée', 'passed'],
    ['ünïcödé names > 中文测试 and 日本語', 'passed'],
    ['ünïcödé names > 🚀 launches 🎉', 'passed'],
    ['separators > price > cost > zero', 'passed'],
  ]),
  ...suite('import-throws.test.js', [['(file failed to run)', 'failed']]),
  ...suite('describe-throws.test.js', [['(file failed to run)', 'failed']]),
  ...suite('setup-fails.test.js', [
    ['database > reads a row', 'failed'],
    ['database > writes a row', 'failed'],
    ['runs outside the failing block', 'passed'],
  ]),
  ...suite('setup-fails-at-top.test.js', [
    ['needs the setup', 'failed'],
    ['a block > needs it too', 'failed'],
  ]),
  ...suite('teardown-fails.test.js', [
    ['passes before the teardown', 'passed'],
    ['(file failed to run)', 'failed'],
  ]),
];

describe('the parity fixture, run under Vitest and under Jest', () => {
  let server: TestServer;
  let vitest: RunOutcome;
  let jest: RunOutcome;
  let vitestAlone: RunOutcome;
  let jestAlone: RunOutcome;

  beforeAll(async () => {
    server = await startTestServer();
    const env = () => reporterEnv(server, { [REPORTER_OPTIONS_VAR]: OPTIONS });
    const cwd = fixtures.parity;
    [vitest, jest, vitestAlone, jestAlone] = await Promise.all([
      runVitest({ cwd, env: env() }),
      runJest({ cwd, env: env() }),
      runVitest({ cwd, withoutReporter: true }),
      runJest({ cwd, withoutReporter: true }),
    ]);
  }, AWAIT_RUNS_TIMEOUT_MS);

  afterAll(() => server?.close());

  const storedBy = (framework: string) => {
    const runs = server.server.store.runs().filter((run) => run.framework === framework);
    expect(runs).toHaveLength(1);
    return server.server.store.results(runs[0]!.id);
  };

  it('creates one run per framework', () => {
    expect(
      server.server.store
        .runs()
        .map((run) => run.framework)
        .sort(),
    ).toEqual(['jest', 'vitest']);
  });

  it('stores exactly the expected results from Vitest', () => {
    expect(sorted(storedBy('vitest').map(withoutDuration))).toEqual(sorted(EXPECTED));
  });

  it('stores exactly the expected results from Jest', () => {
    expect(sorted(storedBy('jest').map(withoutDuration))).toEqual(sorted(EXPECTED));
  });

  it('stores a finite, non-negative duration for every result', () => {
    const durations = [...storedBy('vitest'), ...storedBy('jest')].map((result) => result.duration);
    expect(durations.filter((duration) => !(Number.isFinite(duration) && duration >= 0))).toEqual([]);
  });

  it('leaves both exit codes at 1, as without the reporter', () => {
    expect({ vitest: vitest.code, jest: jest.code }).toEqual({ vitest: 1, jest: 1 });
    expect({ vitest: vitestAlone.code, jest: jestAlone.code }).toEqual({ vitest: 1, jest: 1 });
  });
});

describe('a run filtered by test name, under Vitest and under Jest', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(() => server?.close());

  it('reports the tests left out by -t as skipped', async () => {
    const env = () => reporterEnv(server, { [REPORTER_OPTIONS_VAR]: OPTIONS });
    const args = ['-t', 'adds'];
    await Promise.all([
      runVitest({ cwd: fixtures.passing, args, env: env() }),
      runJest({ cwd: fixtures.passing, args, env: env() }),
    ]);

    const expected = [
      ...suite('math.test.js', [
        ['math > adds', 'passed'],
        ['math > multiplies', 'skipped'],
        ['divides', 'skipped'],
      ]),
      ...suite('text.test.js', [
        ['text > trims', 'skipped'],
        ['text > pads', 'skipped'],
        ['text > wraps long lines', 'skipped'],
        ['text > hyphenates', 'skipped'],
      ]),
    ];
    const runs = server.server.store.runs();
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(sorted(server.server.store.results(run.id).map(withoutDuration))).toEqual(sorted(expected));
    }
  });
});

function suite(testSuite: string, cases: [testCase: string, status: string][]): Expected[] {
  return cases.map(([testCase, status]) => ({ testSuite, testCase, status }));
}

function withoutDuration({ testSuite, testCase, status }: StoredResult): Expected {
  return { testSuite, testCase, status };
}

function sorted(results: Expected[]): Expected[] {
  const key = (result: Expected) => `${result.testSuite}\u0000${result.testCase}`;
  return [...results].sort((a, b) => key(a).localeCompare(key(b)));
}
