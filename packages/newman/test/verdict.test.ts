import { describe, expect, it } from 'vitest';
import { newmanVerdict } from '../src/verdict.js';

// Newman's verdict on a run, from its `done` event's error and summary (newman/lib/run/summary.js
// keeps a failure for every event that carried an error): what the run's end is told.

const failure = (at: string, message: string) => ({ at, error: { name: 'Error', message } });

describe("Newman's verdict", () => {
  it('passes a run whose summary counts no failure and that no error ended', () => {
    expect(newmanVerdict(null, { run: { failures: [], error: null } })).toEqual({ failed: false, why: [] });
  });

  it("fails a run with failures its requests' results hold, with nothing more to say", () => {
    const summary = {
      run: {
        failures: [
          failure('request', 'connect ECONNREFUSED 127.0.0.1:9'),
          failure('assertion:0 in test-script', 'expected 1 to deeply equal 2'),
          failure('test-script', 'ReferenceError: x is not defined'),
          failure('prerequest-script:3:5', 'broke'),
          failure('test', 'ReferenceError: x is not defined'),
        ],
      },
    };
    expect(newmanVerdict(null, summary)).toEqual({ failed: true, why: [] });
  });

  it('says the failures at other points of the run, and an error that ended it that done did not carry', () => {
    const summary = {
      run: {
        failures: [failure('beforeIteration', 'bad data row'), failure('beforeItem', 'no such item')],
        error: { message: 'runtime: aborted' },
      },
    };
    expect(newmanVerdict(null, summary)).toEqual({
      failed: true,
      why: ['runtime: aborted', 'bad data row (at beforeIteration)', 'no such item (at beforeItem)'],
    });
  });

  it('fails a run an error ended, which the adapter says itself', () => {
    const err = new Error('callback timed out');
    expect(newmanVerdict(err, { run: { failures: [], error: err } })).toEqual({ failed: true, why: [] });
    expect(newmanVerdict(err, undefined)).toEqual({ failed: true, why: [] });
  });
});
