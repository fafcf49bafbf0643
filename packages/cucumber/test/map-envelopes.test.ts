import { toFailureDetails } from '@testrun/core';
import { describe, expect, it } from 'vitest';
import { statusOf } from '../src/map-envelopes.js';
import { millisOf } from '../src/messages.js';
import { envelopesOf, replay } from './recorded-envelopes.js';

/** Every scenario of the recorded project's features/, as the formatter names it (docs/naming.md#cucumber). */
const PROJECT_RESULTS = [
  'features/cart.feature | Cart > adds an item | passed',
  'features/cart.feature | Cart > fails on purpose | failed',
  'features/cart.feature | Cart > has an undefined step | failed',
  'features/cart.feature | Cart > has a pending step | failed',
  'features/cart.feature | Cart > skips itself | skipped',
  'features/cart.feature | Cart > adds 1 items > Example #1.1 | passed',
  'features/cart.feature | Cart > adds 2 items > Example #1.2 | passed',
  'features/cart.feature | Cart > adds 3 items > Example #2.1 | failed',
  'features/cart.feature | Cart > repeats | passed',
  'features/cart.feature | Cart > repeats (2) | failed',
  'features/cart.feature | Cart > has a Before hook that fails | failed',
  'features/cart.feature | Cart > has an After hook that fails | failed',
  'features/cart.feature | Cart > passes on its retry | passed',
  'features/rules/checkout.feature | Checkout > pays by card | passed',
  'features/rules/checkout.feature | Checkout > coupons > applies a coupon | passed',
];

describe('a recorded serial run', () => {
  const envelopes = envelopesOf('serial');

  it('is one result per scenario and outline example, with its last attempt’s outcome', () => {
    const { results, end } = replay(envelopes);
    expect(results.toSorted()).toEqual(PROJECT_RESULTS.toSorted());
    expect(end).toEqual({ dryRun: false, results: 15, success: false });
  });

  it('hands each scenario on as it finishes, except a pending one, which waits for the run’s verdict on it', () => {
    const { results } = replay(envelopes);
    expect(results.at(-1)).toBe('features/cart.feature | Cart > has a pending step | failed');
    expect(results.slice(0, 2)).toEqual(PROJECT_RESULTS.slice(0, 2));
  });

  it('says the same with the strict mode the command line gives, without waiting', () => {
    const { results } = replay(envelopes, { strict: true });
    expect(results[3]).toBe('features/cart.feature | Cart > has a pending step | failed');
  });

  it('hands core why a scenario failed: its failed step’s exception, and which attempt it was', () => {
    const { failures } = replay(envelopes);
    const failure = failures.get('features/cart.feature | Cart > fails on purpose');
    expect(toFailureDetails(failure, { rootDir: '/', secrets: undefined })).toMatchObject({
      message: 'Expected values to be strictly equal:\n\n0 !== 3',
      stack: expect.stringContaining('steps.js:21:10'),
      attempts: 1,
    });
    expect(failures.has('features/cart.feature | Cart > adds an item')).toBe(false);
  });

  it('says where in the feature file: the failed step’s line, else the scenario’s or the example row’s', () => {
    const { failures } = replay(envelopes);
    const where = (name: string) => {
      const failure = failures.get(`features/cart.feature | Cart > ${name}`);
      return toFailureDetails(failure, { rootDir: '/', secrets: undefined })?.location;
    };
    expect(where('fails on purpose')).toBe('features/cart.feature:10');
    // An outline's step is one line for every example; the example is its row.
    expect(where('adds 3 items > Example #2.1')).toBe('features/cart.feature:28');
    expect(failures.get('features/cart.feature | Cart > adds 3 items > Example #2.1')?.declaredAt).toEqual({
      file: 'features/cart.feature',
      line: 37,
    });
    // No step failed: a hook did, where the scenario is declared.
    expect(where('has a Before hook that fails')).toBe('features/cart.feature:47');
    // A step with no definition, or a pending one: that step's line.
    expect(where('has an undefined step')).toBe('features/cart.feature:14');
    expect(where('has a pending step')).toBe('features/cart.feature:18');
  });

  it('names the step no definition matched, or that is pending, as why: Cucumber says nothing more of it', () => {
    for (const hints of [{}, { strict: true }]) {
      const { failures } = replay(envelopes, hints);
      const said = (name: string) =>
        toFailureDetails(failures.get(`features/cart.feature | Cart > ${name}`), {
          rootDir: '/',
          secrets: undefined,
        })?.message;
      expect(said('has an undefined step')).toBe('Undefined step: When I do something nobody wrote');
      // Waiting for the run's verdict (no hint) or failed at once (strict): why is kept.
      expect(said('has a pending step')).toBe('Pending step: When I pay later');
    }
  });

  it('times a scenario from Cucumber’s timestamps of its last attempt', () => {
    const testCaseOf = new Map<string, string>();
    for (const e of envelopes) {
      if (e.testCase?.id && e.testCase.pickleId) testCaseOf.set(e.testCase.id, e.testCase.pickleId);
    }
    const flaky = envelopes.find((e) => e.pickle?.name === 'passes on its retry')?.pickle?.id;
    const starts = envelopes
      .map((e) => e.testCaseStarted)
      .filter((s) => s && testCaseOf.get(s.testCaseId ?? '') === flaky);
    expect(starts.map((s) => s?.attempt)).toEqual([0, 1]);
    const finished = envelopes.find((e) => e.testCaseFinished?.testCaseStartedId === starts[1]?.id);
    const expected = millisOf(finished?.testCaseFinished?.timestamp) - millisOf(starts[1]?.timestamp);
    const { durations } = replay(envelopes);
    expect(durations.get('features/cart.feature | Cart > passes on its retry')).toBe(expected);
  });

  it('says a scenario passed on its retry took two attempts, and no other scenario did', () => {
    const { attempts } = replay(envelopes);
    expect([...attempts]).toEqual([['features/cart.feature | Cart > passes on its retry', 2]]);
  });
});

describe('a recorded --parallel run', () => {
  it('stores exactly what the serial run stores: the coordinator relays every worker’s messages', () => {
    const { results } = replay(envelopesOf('parallel'));
    expect(results.toSorted()).toEqual(PROJECT_RESULTS.toSorted());
  });

  it('ends failed though the run’s end says success, as Cucumber 10’s --parallel coordinator does of a run that failed', () => {
    // Cucumber 10 exits 1 for this run and writes `success: true` in its testRunFinished.
    const envelopes = envelopesOf('parallel').map((envelope) =>
      envelope.testRunFinished
        ? { testRunFinished: { ...envelope.testRunFinished, success: true } }
        : envelope,
    );
    const { results, end } = replay(envelopes);
    expect(results.toSorted()).toEqual(PROJECT_RESULTS.toSorted());
    expect(end).toMatchObject({ dryRun: false, success: false });
  });
});

describe('a recorded --dry-run', () => {
  const envelopes = envelopesOf('dry-run');

  it('hands nothing on, and says it was a dry run, though Cucumber’s messages do not', () => {
    expect(replay(envelopes)).toEqual({
      results: [],
      durations: new Map(),
      attempts: new Map(),
      failures: new Map(),
      end: { dryRun: true, results: 0, success: true },
    });
  });

  it('hands nothing on before its end either', () => {
    const lastScenario = envelopes.findLastIndex((e) => e.testCaseFinished);
    expect(replay(envelopes, {}, { stopAfter: lastScenario + 1 }).results).toEqual([]);
  });
});

describe('a run cut short before Cucumber’s end', () => {
  it('hands on what finished when the formatter is flushed (the process is going away)', () => {
    const envelopes = envelopesOf('serial');
    const firstScenario = envelopes.findIndex((e) => e.testCaseFinished);
    const { results } = replay(envelopes, {}, { stopAfter: firstScenario + 1, flush: true });
    expect(results).toEqual(['features/cart.feature | Cart > adds an item | passed']);
  });
});

describe('pending steps', () => {
  it('are todo in a run Cucumber passes with them (--no-strict)', () => {
    const { results, end } = replay(envelopesOf('no-strict'));
    expect(results.toSorted()).toEqual([
      'features/cart.feature | Cart > adds an item | passed',
      'features/cart.feature | Cart > has a pending step | todo',
    ]);
    expect(end?.dryRun).toBe(false);
  });

  it('are todo at once when the command line says --no-strict', () => {
    const { results } = replay(envelopesOf('no-strict'), { strict: false });
    expect(results).toContain('features/cart.feature | Cart > has a pending step | todo');
  });
});

describe('a feature file Cucumber cannot parse', () => {
  it('fails its file; Cucumber stops before any scenario, so the formatter’s end hands it on', () => {
    const envelopes = envelopesOf('unparsable');
    expect(envelopes.some((e) => e.testRunStarted)).toBe(false);
    expect(replay(envelopes).results).toEqual([]);
    const flushed = replay(envelopes, {}, { flush: true });
    expect(flushed.results).toEqual(['broken/unparsable.feature | (file failed to run)']);
    // Why: Cucumber's parse error, at its line.
    const failure = flushed.failures.get('broken/unparsable.feature | (file failed to run)');
    expect(toFailureDetails(failure, { rootDir: '/', secrets: undefined })).toEqual({
      message: expect.stringMatching(/^\(5:3\): expected: #EOF, .* got 'This line is no Gherkin'$/),
      location: 'broken/unparsable.feature:5:3',
    });
  });
});

describe('statusOf', () => {
  it.each([
    ['PASSED', true, 'passed'],
    ['FAILED', true, 'failed'],
    ['UNDEFINED', false, 'failed'],
    ['AMBIGUOUS', false, 'failed'],
    ['PENDING', true, 'failed'],
    ['PENDING', false, 'todo'],
    ['SKIPPED', true, 'skipped'],
    ['UNKNOWN', true, 'skipped'],
  ] as const)('maps a scenario whose worst step is %s (strict: %s) to %s', (worst, strict, status) => {
    expect(statusOf(worst, strict)).toBe(status);
  });
});
