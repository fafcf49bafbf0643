import { describe, expect, it } from 'vitest';
import type { StoredResult, StoredRun } from '../../src/ledger/store.js';
import { countFlips, flakyTests, testHistory } from '../../src/pages/history.js';

// Runs of one project, oldest first; each run holds the results given for it.
function project(...runResults: Partial<StoredResult>[][]) {
  const runs: StoredRun[] = runResults.map((_, index) => ({
    id: `run-${index}`,
    project: 'shop',
    framework: 'vitest',
    tags: [],
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
  }));
  const results = new Map(
    runResults.map((held, index) => [
      `run-${index}`,
      held.map((r) => ({
        runId: `run-${index}`,
        testSuite: 'a.test.ts',
        testCase: 't',
        status: 'passed',
        duration: 1,
        ...r,
      })),
    ]),
  );
  return { runs, resultsOf: (id: string) => results.get(id) ?? [] };
}

const pass = (testCase = 't', duration = 1) => ({ testCase, status: 'passed', duration });
const fail = (testCase = 't', duration = 1) => ({ testCase, status: 'failed', duration });
const skip = (testCase = 't') => ({ testCase, status: 'skipped', duration: 0 });

describe('testHistory', () => {
  it("gives the test's outcome and duration in each run, undefined where the run did not hold it", () => {
    const { runs, resultsOf } = project([pass('t', 5)], [pass('other')], [fail('t', 7)]);
    const history = testHistory(runs, resultsOf, { testSuite: 'a.test.ts', testCase: 't' });
    expect(history.map(({ run, status, duration }) => [run.id, status, duration])).toEqual([
      ['run-0', 'passed', 5],
      ['run-1', undefined, 0],
      ['run-2', 'failed', 7],
    ]);
  });

  it('tells tests apart by suite as well as by name', () => {
    const { runs, resultsOf } = project([pass(), { ...fail(), testSuite: 'b.test.ts' }]);
    const [outcome] = testHistory(runs, resultsOf, { testSuite: 'b.test.ts', testCase: 't' });
    expect(outcome?.status).toBe('failed');
  });

  it('counts a run that holds the test twice as failed if either failed, with both durations', () => {
    const { runs, resultsOf } = project([pass('t', 2), fail('t', 3)], [skip(), pass('t', 4)]);
    const history = testHistory(runs, resultsOf, { testSuite: 'a.test.ts', testCase: 't' });
    expect(history.map(({ status, duration }) => [status, duration])).toEqual([
      ['failed', 5],
      ['passed', 4],
    ]);
  });
});

describe('the flaky rule', () => {
  it('lists a test that passed in one run and failed in another, and no test that only passed or only failed', () => {
    const { runs, resultsOf } = project(
      [pass('flaky'), pass('stable'), fail('broken')],
      [fail('flaky'), pass('stable'), fail('broken')],
    );
    const flaky = flakyTests(runs, resultsOf);
    expect(flaky.map((test) => [test.testCase, test.passed, test.failed, test.flips])).toEqual([
      ['flaky', 1, 1, 1],
    ]);
  });

  it('counts flips between passed and failed, leaving out runs where the test was skipped or absent', () => {
    const { runs, resultsOf } = project([pass()], [skip()], [pass()], [], [fail()], [pass()], [pass()]);
    const outcomes = testHistory(runs, resultsOf, { testSuite: 'a.test.ts', testCase: 't' });
    expect(countFlips(outcomes)).toEqual({ passed: 4, failed: 1, flips: 2 });
  });

  it('sorts by flips, most first, then by failed runs', () => {
    const { runs, resultsOf } = project(
      [pass('once'), pass('often'), fail('twice-failed')],
      [pass('once'), fail('often'), fail('twice-failed')],
      [fail('once'), pass('often'), pass('twice-failed')],
    );
    expect(flakyTests(runs, resultsOf).map((test) => test.testCase)).toEqual([
      'often',
      'twice-failed',
      'once',
    ]);
  });

  it('keeps for each flaky test its outcome in every run of the window, oldest first', () => {
    const { runs, resultsOf } = project([pass()], [], [fail()]);
    const [test] = flakyTests(runs, resultsOf);
    expect(test?.outcomes.map((o) => o.status)).toEqual(['passed', undefined, 'failed']);
  });
});
