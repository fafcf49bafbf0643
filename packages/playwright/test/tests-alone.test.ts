import { describe, expect, it } from 'vitest';
import { testsAlone } from '../src/reporter.js';

// Whether Playwright failed a run for its failed tests alone: where it did, a run whose every
// failure is a quarantined test's passes in the process (onEnd's status; docs/design/quarantine.md).

const failed = {
  status: 'failed' as const,
  maxFailures: 0,
  failedTests: 1,
  notRun: 0,
  failOnFlakyTests: false,
  flakyTests: 0,
};

describe("Playwright's verdict, for quarantine", () => {
  it('is its failed tests alone when it ran every test and failed for them', () => {
    expect(testsAlone(failed)).toEqual({ failedByTestsAlone: true });
    expect(testsAlone({ ...failed, maxFailures: 5 })).toEqual({ failedByTestsAlone: true });
  });

  it.each([
    [{ status: 'timedout' as const }, 'Playwright reached its globalTimeout'],
    [{ maxFailures: 1 }, 'Playwright stopped at --max-failures, before every test ran'],
    [{ notRun: 2 }, '2 tests never ran'],
    [{ failOnFlakyTests: true, flakyTests: 1 }, 'failOnFlakyTests is set, and a test was flaky'],
    [{ status: undefined }, 'Playwright ended without its verdict'],
  ])('is more after %j: %s', (run, why) => {
    expect(testsAlone({ ...failed, ...run })).toEqual({ failedByTestsAlone: false, notTestsAlone: why });
  });

  it('is not vouched for when interrupted', () => {
    expect(testsAlone({ ...failed, status: 'interrupted' })).toEqual({ failedByTestsAlone: false });
  });
});
