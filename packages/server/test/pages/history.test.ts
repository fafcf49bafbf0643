import { describe, expect, it } from 'vitest';
import type { StoredResult, StoredRun } from '../../src/ledger/store.js';
import { addResult, countFlips, testHistory } from '../../src/pages/history.js';

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

describe('countFlips', () => {
  it('counts flips between passed and failed, leaving out runs where the test was skipped or absent', () => {
    const { runs, resultsOf } = project([pass()], [skip()], [pass()], [], [fail()], [pass()], [pass()]);
    const outcomes = testHistory(runs, resultsOf, { testSuite: 'a.test.ts', testCase: 't' });
    expect(countFlips(outcomes)).toEqual({ passed: 4, failed: 1, flips: 2 });
  });
});

describe('addResult', () => {
  it('folds results one at a time to what testHistory gives for them together', () => {
    const { runs } = project([]);
    const run = runs[0]!;
    const folded = [skip(), pass('t', 2), fail('t', 3), pass('t', 4)].reduce(addResult, {
      run,
      status: undefined,
      duration: 0,
    });
    expect(folded).toEqual({ run, status: 'failed', duration: 9 });
    expect(addResult({ run, status: 'todo', duration: 0 }, skip()).status).toBe('todo');
  });

  it('keeps the attempt a passed result needed when it was more than one, the most of them', () => {
    const { runs } = project([]);
    const run = runs[0]!;
    const start = { run, status: undefined, duration: 0 };
    const retried = (attempts: number) => ({ ...pass(), details: { attempts } });
    expect(addResult(start, retried(3))).toEqual({ run, status: 'passed', duration: 1, passedOnAttempt: 3 });
    expect([retried(2), retried(4), pass()].reduce(addResult, start).passedOnAttempt).toBe(4);
    expect(addResult(start, retried(1))).not.toHaveProperty('passedOnAttempt');
    expect(addResult(start, { ...fail(), details: { attempts: 3 } })).not.toHaveProperty('passedOnAttempt');
  });
});
