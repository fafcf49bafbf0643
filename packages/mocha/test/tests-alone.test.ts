import { describe, expect, it } from 'vitest';
import { testsAlone } from '../src/reporter.js';

// Whether Mocha failed a run for its failed tests alone: where it did, a run whose every
// failure is a quarantined test's passes in the process (the exit code `done` hands Mocha;
// docs/design/quarantine.md).

describe("Mocha's verdict, for quarantine", () => {
  it('is its failed tests alone when it told its reporters of every failure it counted', () => {
    expect(testsAlone({ bails: false, failures: 2, failEvents: 2 })).toEqual({ failedByTestsAlone: true });
  });

  it('is more under --bail, which leaves tests unrun', () => {
    expect(testsAlone({ bails: true, failures: 1, failEvents: 1 })).toEqual({
      failedByTestsAlone: false,
      notTestsAlone: '--bail stops Mocha at a failure, before every test ran',
    });
  });

  it('is more when Mocha counted a failure it never told its reporters of', () => {
    expect(testsAlone({ bails: false, failures: 3, failEvents: 2 })).toEqual({
      failedByTestsAlone: false,
      notTestsAlone: 'Mocha counted 3 failures and told its reporters of 2',
    });
  });
});
