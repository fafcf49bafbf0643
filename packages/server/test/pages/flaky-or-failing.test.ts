import { describe, expect, it } from 'vitest';
import type { StoredResult, StoredRun } from '../../src/ledger/store.js';
import { commitOf, FLAKY_WINDOW, flakyOrFailing } from '../../src/pages/flaky-or-failing.js';

// Runs of one project, oldest first, as plain data: each built from the commit it carries
// (undefined: no commit tag, as on a developer's machine) and the results it held.
interface RunSpec {
  commit: string | undefined;
  /** The `branch:` tag of a run with a commit; undefined: none. */
  branch: string | undefined;
  tags: string[];
  results: Partial<StoredResult>[];
}

const on = (commit: string | undefined, ...results: Partial<StoredResult>[]): RunSpec => ({
  commit,
  branch: 'main',
  tags: [],
  results,
});
/** A run of one shard of a sharded job on `commit`. */
const shard = (commit: string, index: number, ...results: Partial<StoredResult>[]): RunSpec => ({
  commit,
  branch: 'main',
  tags: [`shard:${index}/2`],
  results,
});
/** A run on `branch` (undefined: a CI that names none) of `commit`. */
const onBranch = (
  branch: string | undefined,
  commit: string,
  ...results: Partial<StoredResult>[]
): RunSpec => ({ commit, branch, tags: [], results });
const pass = (testCase = 't') => ({ testCase, status: 'passed' });
const fail = (testCase = 't') => ({ testCase, status: 'failed' });
const skip = (testCase = 't') => ({ testCase, status: 'skipped' });
/** Passed on attempt `attempts` of one run, as the runner said (the failure-details extension). */
const passOnAttempt = (attempts: number, testCase = 't') => ({
  testCase,
  status: 'passed',
  details: { attempts },
});

function project(...specs: RunSpec[]) {
  const runs: StoredRun[] = specs.map((spec, index) => ({
    id: `run-${index}`,
    project: 'shop',
    framework: 'vitest',
    tags:
      spec.commit === undefined
        ? spec.tags
        : [
            'ci:github',
            ...(spec.branch === undefined ? [] : [`branch:${spec.branch}`]),
            `commit:${spec.commit}`,
            ...spec.tags,
          ],
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
  }));
  const results: StoredResult[] = specs.flatMap((spec, index) =>
    spec.results.map((r) => ({
      runId: `run-${index}`,
      testSuite: 'a.test.ts',
      testCase: 't',
      status: 'passed',
      duration: 1,
      ...r,
    })),
  );
  return { runs, results };
}

function judge(...specs: RunSpec[]) {
  const { runs, results } = project(...specs);
  return flakyOrFailing(runs, results);
}

const names = (tests: readonly { testCase: string }[]) => tests.map((test) => test.testCase);

describe('commitOf', () => {
  it('reads the commit core tags a CI run with, and nothing from a run without one', () => {
    const run = (tags: string[]): StoredRun => ({
      id: 'r',
      project: 'p',
      framework: 'f',
      tags,
      createdAt: '',
    });
    expect(commitOf(run(['ci:github', 'commit:0123abc', 'build:9']))).toBe('0123abc');
    expect(commitOf(run(['ci:github', 'branch:main']))).toBeUndefined();
    expect(commitOf(run(['commit:']))).toBeUndefined();
    expect(commitOf(run(['mycommit:x', 'commits:y']))).toBeUndefined();
  });
});

describe('flaky by commit', () => {
  it('calls a test flaky when one commit both passed and failed it in two runs (a rerun)', () => {
    const verdicts = judge(on('c1', pass('flaky'), pass('stable')), on('c1', fail('flaky'), pass('stable')));
    expect(verdicts.rule).toBe('same-commit');
    expect(names(verdicts.flaky)).toEqual(['flaky']);
    expect(verdicts.flaky[0]?.bothOutcomes).toEqual([
      {
        commit: 'c1',
        passedIn: expect.objectContaining({ id: 'run-0' }),
        failedIn: expect.objectContaining({ id: 'run-1' }),
      },
    ]);
    expect(verdicts.newlyFailing).toEqual([]);
  });

  it('calls a test flaky when a retried shard job passed it on the commit where the first try failed it', () => {
    const verdicts = judge(
      shard('c1', 1, fail('a')),
      shard('c1', 2, pass('b')),
      shard('c1', 1, pass('a')), // the retried job
    );
    expect(names(verdicts.flaky)).toEqual(['a']);
    expect(verdicts.flaky[0]?.bothOutcomes.map((b) => [b.commit, b.passedIn.id, b.failedIn.id])).toEqual([
      ['c1', 'run-2', 'run-0'],
    ]);
  });

  it('does not call flaky a test the shards of one commit split between them, each outcome once', () => {
    const verdicts = judge(shard('c1', 1, pass('a'), fail('b')), shard('c1', 2, pass('c')));
    expect(verdicts.flaky).toEqual([]);
  });

  it('does not call flaky a test that passed on one commit and failed on the next: that is a new failure', () => {
    const verdicts = judge(on('c1', pass()), on('c2', fail()));
    expect(verdicts.flaky).toEqual([]);
    expect(names(verdicts.newlyFailing)).toEqual(['t']);
  });

  it('lists every commit on which the test had both outcomes, and sorts by how many', () => {
    const verdicts = judge(
      on('c1', pass('twice'), pass('once')),
      on('c1', fail('twice'), fail('once')),
      on('c2', pass('twice'), pass('once')),
      on('c2', fail('twice'), pass('once')),
    );
    expect(names(verdicts.flaky)).toEqual(['twice', 'once']);
    expect(verdicts.flaky[0]?.bothOutcomes.map((b) => b.commit)).toEqual(['c1', 'c2']);
  });

  it('does not count a test held twice in one run, passed and failed, as both outcomes: nothing says it was a retry', () => {
    // A repeated name is two tests as often as it is one test run twice; results carry no attempt.
    const verdicts = judge(on('c1', pass(), fail()), on('c2', pass()));
    expect(verdicts.flaky).toEqual([]);
    // The run counts as failed (if either failed), so on c1 the test failed once, then passed on c2.
    expect(verdicts.newlyFailing).toEqual([]);
  });

  it('tells tests apart by suite as well as by name', () => {
    const verdicts = judge(
      on('c1', { ...pass(), testSuite: 'a.test.ts' }, { ...pass(), testSuite: 'b.test.ts' }),
      on('c1', { ...pass(), testSuite: 'a.test.ts' }, { ...fail(), testSuite: 'b.test.ts' }),
    );
    expect(verdicts.flaky.map((test) => test.testSuite)).toEqual(['b.test.ts']);
  });

  it('leaves out runs without a commit tag, and counts them', () => {
    // A developer's run (no commit) that failed the test is not a second outcome on c1.
    const verdicts = judge(on('c1', pass()), on(undefined, fail()), on('c1', pass()));
    expect(verdicts.rule).toBe('same-commit');
    expect(verdicts.judgedRuns).toBe(2);
    expect(verdicts.runs).toBe(3);
    expect(verdicts.flaky).toEqual([]);
    expect(verdicts.newlyFailing).toEqual([]);
  });

  it('counts passed and failed runs and flips over the runs with a commit only', () => {
    const verdicts = judge(on('c1', pass()), on(undefined, fail()), on(undefined, pass()), on('c1', fail()));
    expect(verdicts.flaky.map((test) => [test.passed, test.failed, test.flips])).toEqual([[1, 1, 1]]);
  });

  it('ignores skipped outcomes and runs that did not hold the test', () => {
    const verdicts = judge(on('c1', pass()), on('c1', skip()), on('c1', pass('other')));
    expect(verdicts.flaky).toEqual([]);
  });

  it('keeps for each listed test its outcome in every run of the window, oldest first, untagged runs too', () => {
    const verdicts = judge(on('c1', pass()), on(undefined, pass('other')), on('c1', fail()));
    expect(verdicts.flaky[0]?.outcomes.map((o) => [o.run.id, o.status])).toEqual([
      ['run-0', 'passed'],
      ['run-1', undefined],
      ['run-2', 'failed'],
    ]);
  });
});

describe('newly failing', () => {
  it('names a test that failed on every commit since one that passed it, with the first failing run and the last passing one', () => {
    const verdicts = judge(
      on('c1', pass(), pass('stable')),
      on('c1', pass(), pass('stable')),
      on('c2', fail(), pass('stable')),
      on('c2', fail(), pass('stable')),
      on('c3', fail(), pass('stable')),
    );
    expect(verdicts.newlyFailing).toEqual([
      expect.objectContaining({
        testCase: 't',
        commit: 'c2',
        firstFailingRun: expect.objectContaining({ id: 'run-2' }),
        lastPassingRun: expect.objectContaining({ id: 'run-1' }),
        failingCommits: 2,
        failedRuns: 3,
      }),
    ]);
    expect(verdicts.newlyFailing[0]?.outcomes.map((o) => o.status)).toEqual([
      'passed',
      'passed',
      'failed',
      'failed',
      'failed',
    ]);
  });

  it('names no test that was fixed later: it passed on the newest commit that ran it', () => {
    const verdicts = judge(on('c1', pass()), on('c2', fail()), on('c3', fail()), on('c4', pass()));
    expect(verdicts.newlyFailing).toEqual([]);
    expect(verdicts.flaky).toEqual([]);
  });

  it('starts the streak after the last commit that passed it, when it broke, was fixed and broke again', () => {
    const verdicts = judge(
      on('c1', pass()),
      on('c2', fail()),
      on('c3', pass()),
      on('c4', fail()),
      on('c5', fail()),
    );
    expect(verdicts.newlyFailing.map((f) => [f.commit, f.firstFailingRun.id, f.lastPassingRun.id])).toEqual([
      ['c4', 'run-3', 'run-2'],
    ]);
  });

  it('names no test that failed on every commit of the window: when it began is not in it', () => {
    const verdicts = judge(on('c1', fail()), on('c2', fail()));
    expect(verdicts.newlyFailing).toEqual([]);
  });

  it('does not end a streak at a commit that ran without the test or skipped it', () => {
    const verdicts = judge(
      on('c1', pass()),
      on('c2', fail()),
      on('c3', skip()),
      on('c4', pass('other')),
      on('c5', fail()),
    );
    expect(verdicts.newlyFailing.map((f) => [f.commit, f.failingCommits])).toEqual([['c2', 2]]);
  });

  it('orders commits by their first run: a rerun of an older commit does not make it the newest', () => {
    // c2 broke the test; rerunning c1 afterwards (it passes there) does not fix it.
    const verdicts = judge(on('c1', pass()), on('c2', fail()), on('c1', pass()));
    expect(names(verdicts.newlyFailing)).toEqual(['t']);
    expect(verdicts.newlyFailing[0]?.lastPassingRun.id).toBe('run-2');
  });

  it('names a test newly failing when the commit before the streak both passed and failed it, and lists it flaky too', () => {
    const verdicts = judge(on('c1', pass()), on('c1', fail()), on('c2', fail()));
    expect(names(verdicts.flaky)).toEqual(['t']);
    expect(verdicts.newlyFailing.map((f) => [f.commit, f.lastPassingRun.id])).toEqual([['c2', 'run-0']]);
  });

  it('finds a regression across shards: the shard that holds the test decides for its commit', () => {
    const verdicts = judge(
      shard('c1', 1, pass('a')),
      shard('c1', 2, pass('b')),
      shard('c2', 1, pass('a')),
      shard('c2', 2, fail('b')),
    );
    expect(verdicts.newlyFailing.map((f) => [f.testCase, f.firstFailingRun.id, f.lastPassingRun.id])).toEqual(
      [['b', 'run-3', 'run-1']],
    );
  });

  it("judges a streak on its branch: a pull request's branch that broke a test is newly failing there, main still passing it is not", () => {
    const verdicts = judge(
      onBranch('main', 'c1', pass()),
      onBranch('fix-cart', 'f1', fail()),
      onBranch('main', 'c2', pass()),
      onBranch('fix-cart', 'f2', fail()),
    );
    // The branch's base is not in the window: the last run before the streak that passed it stands in.
    expect(
      verdicts.newlyFailing.map((f) => [
        f.branch,
        f.commit,
        f.firstFailingRun.id,
        f.lastPassingRun.id,
        f.failingCommits,
      ]),
    ).toEqual([['fix-cart', 'f1', 'run-1', 'run-0', 2]]);
  });

  it("does not let another branch's passing run end a streak", () => {
    const verdicts = judge(
      onBranch('main', 'c1', pass()),
      onBranch('main', 'c2', fail()),
      onBranch('fix-cart', 'f1', pass()),
      onBranch('main', 'c3', fail()),
    );
    expect(verdicts.newlyFailing.map((f) => [f.branch, f.commit, f.lastPassingRun.id])).toEqual([
      ['main', 'c2', 'run-0'],
    ]);
  });

  it('names no branch newly failing when nothing passed the test before its streak', () => {
    const verdicts = judge(onBranch('fix-cart', 'f1', fail()), onBranch('main', 'c1', pass()));
    expect(verdicts.newlyFailing).toEqual([]);
  });

  it('lists one entry per branch failing it, and treats runs that name no branch as one line of commits', () => {
    const verdicts = judge(
      onBranch(undefined, 'c1', pass()),
      onBranch(undefined, 'c2', fail()),
      onBranch('fix-cart', 'f1', fail()),
    );
    expect(verdicts.newlyFailing.map((f) => [f.branch, f.commit])).toEqual([
      ['fix-cart', 'f1'],
      [undefined, 'c2'],
    ]);
  });

  it('lists the newest streak first', () => {
    const verdicts = judge(
      on('c1', pass('early'), pass('late')),
      on('c2', fail('early'), pass('late')),
      on('c3', fail('early'), fail('late')),
    );
    expect(names(verdicts.newlyFailing)).toEqual(['late', 'early']);
  });
});

describe('without commit tags: the older rule', () => {
  it('calls flaky a test that passed in one run and failed in another, names none newly failing, and says which rule it used', () => {
    const verdicts = judge(
      on(undefined, pass('flaky'), pass('stable'), fail('broken')),
      on(undefined, fail('flaky'), pass('stable'), fail('broken')),
    );
    expect(verdicts.rule).toBe('passed-and-failed');
    expect(verdicts.judgedRuns).toBe(2);
    expect(
      verdicts.flaky.map((test) => [test.testCase, test.passed, test.failed, test.flips, test.bothOutcomes]),
    ).toEqual([['flaky', 1, 1, 1, []]]);
    expect(verdicts.newlyFailing).toEqual([]);
  });

  it('sorts by flips, most first, then by failed runs', () => {
    const verdicts = judge(
      on(undefined, pass('once'), pass('often'), fail('twice-failed')),
      on(undefined, pass('once'), fail('often'), fail('twice-failed')),
      on(undefined, fail('once'), pass('often'), pass('twice-failed')),
    );
    expect(names(verdicts.flaky)).toEqual(['often', 'twice-failed', 'once']);
  });

  it('keeps for each flaky test its outcome in every run of the window, oldest first', () => {
    const verdicts = judge(on(undefined, pass()), on(undefined), on(undefined, fail()));
    expect(verdicts.flaky[0]?.outcomes.map((o) => o.status)).toEqual(['passed', undefined, 'failed']);
  });

  it('is the rule for a project none of whose runs in the window carried a commit', () => {
    expect(judge().rule).toBe('passed-and-failed');
    expect(judge(on(undefined, pass()), on('c1', pass())).rule).toBe('same-commit');
  });
});

describe('passed on a retry within one run', () => {
  it('calls flaky a test that passed on a later attempt, with the run and the attempt, by commit', () => {
    const verdicts = judge(on('c1', pass('t'), pass('stable')), on('c2', passOnAttempt(3), pass('stable')));
    expect(verdicts.rule).toBe('same-commit');
    expect(names(verdicts.flaky)).toEqual(['t']);
    expect(verdicts.flaky[0]?.bothOutcomes).toEqual([]);
    expect(verdicts.flaky[0]?.retriedPasses).toEqual([
      { run: expect.objectContaining({ id: 'run-1' }), attempts: 3 },
    ]);
    expect(verdicts.newlyFailing).toEqual([]);
  });

  it('calls it flaky without commit tags too, where nothing failed in any run', () => {
    const verdicts = judge(on(undefined, pass()), on(undefined, passOnAttempt(2)));
    expect(verdicts.rule).toBe('passed-and-failed');
    expect(verdicts.flaky.map((test) => [test.testCase, test.failed, test.flips])).toEqual([['t', 0, 0]]);
    expect(verdicts.flaky[0]?.retriedPasses.map((r) => [r.run.id, r.attempts])).toEqual([['run-1', 2]]);
  });

  it('counts a run without a commit tag among runs that carry one: the runner said it, not the commit', () => {
    const verdicts = judge(on('c1', pass()), on(undefined, passOnAttempt(2)));
    expect(verdicts.rule).toBe('same-commit');
    expect(verdicts.flaky[0]?.retriedPasses.map((r) => r.run.id)).toEqual(['run-1']);
  });

  it('does not call flaky a test that passed at its first attempt, or failed after several', () => {
    const verdicts = judge(
      on('c1', passOnAttempt(1, 'first'), { testCase: 'failed', status: 'failed', details: { attempts: 3 } }),
      on('c2', pass('first'), { testCase: 'failed', status: 'failed', details: { attempts: 3 } }),
    );
    expect(verdicts.flaky).toEqual([]);
  });

  it('lists a test passed on retries in more runs first', () => {
    const verdicts = judge(
      on('c1', passOnAttempt(2, 'once'), passOnAttempt(2, 'twice')),
      on('c2', pass('once'), passOnAttempt(4, 'twice')),
    );
    expect(names(verdicts.flaky)).toEqual(['twice', 'once']);
    expect(verdicts.flaky[0]?.retriedPasses.map((r) => [r.run.id, r.attempts])).toEqual([
      ['run-0', 2],
      ['run-1', 4],
    ]);
  });

  it('gives the same verdicts from only the results of tests that failed or passed after retries in the window', () => {
    const { runs, results } = project(
      on('c1', pass('retried'), pass('stable'), pass('flaky')),
      on('c1', passOnAttempt(2, 'retried'), pass('stable'), fail('flaky')),
    );
    const kept = new Set(
      results.filter((r) => r.status === 'failed' || (r.details?.attempts ?? 1) > 1).map((r) => r.testCase),
    );
    const fewer = results.filter((r) => kept.has(r.testCase));
    expect(fewer.length).toBeLessThan(results.length);
    const all = flakyOrFailing(runs, results);
    expect(flakyOrFailing(runs, fewer)).toEqual(all);
    expect(names(all.flaky)).toEqual(['flaky', 'retried']);
  });
});

describe('the input', () => {
  it('takes results in any order, from any iterable, and ignores results of runs it was not given', () => {
    const { runs, results } = project(on('c1', pass()), on('c1', fail()), on('c2', fail()));
    function* streamed() {
      yield* [...results].reverse();
      yield { runId: 'elsewhere', testSuite: 'a.test.ts', testCase: 't', status: 'passed', duration: 1 };
    }
    const fromStream = flakyOrFailing(runs, streamed());
    expect(fromStream).toEqual(flakyOrFailing(runs, results));
    expect(names(fromStream.flaky)).toEqual(['t']);
  });

  it('gives the same verdicts from only the results of tests that failed at least once in the window', () => {
    // What a database store may do to read less: one more condition in its query.
    const { runs, results } = project(
      on('c1', pass('flaky'), pass('broken'), pass('stable')),
      on('c1', fail('flaky'), pass('broken'), pass('stable')),
      on(undefined, fail('local'), pass('stable')),
      on('c2', pass('flaky'), fail('broken'), pass('stable')),
    );
    const failedOnce = new Set(results.filter((r) => r.status === 'failed').map((r) => r.testCase));
    const fewer = results.filter((r) => failedOnce.has(r.testCase));
    expect(fewer.length).toBeLessThan(results.length);
    const all = flakyOrFailing(runs, results);
    expect(flakyOrFailing(runs, fewer)).toEqual(all);
    expect([names(all.flaky), names(all.newlyFailing)]).toEqual([['flaky'], ['broken']]);
  });

  it('judges only the runs it is given: a caller passes the last FLAKY_WINDOW', () => {
    expect(FLAKY_WINDOW).toBe(20);
    const { runs, results } = project(on('c1', pass()), on('c1', fail()), on('c2', fail()));
    const lastTwo = flakyOrFailing(runs.slice(-2), results);
    expect(lastTwo.runs).toBe(2);
    expect(lastTwo.flaky).toEqual([]);
    expect(lastTwo.newlyFailing).toEqual([]);
  });
});
