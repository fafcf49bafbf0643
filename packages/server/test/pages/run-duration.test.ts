import { describe, expect, it } from 'vitest';
import { runDuration } from '../../src/pages/run-duration.js';

const created = '2026-11-22T03:27:30.000Z';
const run = { createdAt: created, lastReceivedAt: created, total: 0, totalDuration: 0 };

describe('runDuration', () => {
  it('is the wall clock from creation to end once the run ended, whatever its tests add up to', () => {
    expect(
      runDuration({
        ...run,
        end: { status: 'completed', endedAt: '2026-11-22T03:27:35.400Z' },
        lastReceivedAt: '2026-11-22T03:27:35.000Z',
        total: 18,
        totalDuration: 191,
      }),
    ).toEqual({ kind: 'wall', ms: 5400, tests: 191 });
  });

  it('is the wall clock to the last results while the run has not ended', () => {
    expect(
      runDuration({ ...run, lastReceivedAt: '2026-11-22T03:27:32.500Z', total: 3, totalDuration: 40 }),
    ).toEqual({ kind: 'wall-to-last-results', ms: 2500, tests: 40 });
  });

  it("is the tests' sum when nothing was received and the run has not ended, or its times do not parse", () => {
    expect(runDuration(run)).toEqual({ kind: 'tests', ms: 0, tests: 0 });
    expect(
      runDuration({
        ...run,
        createdAt: 'not a time',
        lastReceivedAt: 'not a time',
        total: 2,
        totalDuration: 9,
      }),
    ).toEqual({ kind: 'tests', ms: 9, tests: 9 });
    // An end before the creation is a clock gone wrong, not a negative duration.
    expect(
      runDuration({
        ...run,
        end: { status: 'failed', endedAt: '2026-11-22T03:27:00.000Z' },
        total: 1,
        totalDuration: 4,
      }),
    ).toEqual({ kind: 'tests', ms: 4, tests: 4 });
  });
});
