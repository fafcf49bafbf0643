import { describe, expect, it } from 'vitest';
import { verdictOf } from '../src/reporter.js';

// TestCafe's verdict beside the tests it reported: a run it failed where no result says so
// holds why, and quarantine passes a build (under testrun run) only where TestCafe failed it
// for its failed tests alone (docs/design/quarantine.md).

const everyTest = { counted: 3, reported: 3 };

describe("TestCafe's verdict", () => {
  it('is its failed tests alone when it reported every test it counted', () => {
    expect(verdictOf(everyTest, [], { stopsOnFirstFail: false, failed: true })).toEqual({
      failedByTestsAlone: true,
    });
  });

  it('is more under stopOnFirstFail, which leaves tests unrun, and says nothing more once a test failed', () => {
    const stopped = {
      failedByTestsAlone: false,
      notTestsAlone: 'stopOnFirstFail stops TestCafe at a failure, before every test ran',
    };
    expect(verdictOf({ counted: 3, reported: 1 }, [], { stopsOnFirstFail: true, failed: true })).toEqual(
      stopped,
    );
    expect(verdictOf(everyTest, [], { stopsOnFirstFail: true, failed: false })).toEqual(stopped);
  });

  it('fails the run, saying why, when tests it counted never ended: a browser that disconnected', () => {
    expect(
      verdictOf({ counted: 3, reported: 1 }, ['Chrome disconnected'], {
        stopsOnFirstFail: false,
        failed: true,
      }),
    ).toEqual({
      why: ['Chrome disconnected\nTestCafe counted 3 tests and reported 1: 2 never ended'],
      failedByTestsAlone: false,
    });
  });
});
