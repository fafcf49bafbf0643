import { describe, expect, it } from 'vitest';
import type { Vitest } from 'vitest/node';
import { testsAlone } from '../src/reporter.js';

// Whether Vitest fails a run for its failed tests alone (quarantine, docs/design/quarantine.md).

const vitestWith = (coverage: object) => ({ config: { coverage } }) as unknown as Pick<Vitest, 'config'>;

describe("Vitest's verdict, for quarantine", () => {
  it('is its failed tests alone, coverage off or without thresholds', () => {
    expect(testsAlone(vitestWith({ enabled: false, thresholds: { lines: 90 } }))).toEqual({
      failedByTestsAlone: true,
    });
    expect(testsAlone(vitestWith({ enabled: true, thresholds: { perFile: true } }))).toEqual({
      failedByTestsAlone: true,
    });
  });

  it('is more with coverage thresholds, which Vitest checks only when no test failed', () => {
    expect(testsAlone(vitestWith({ enabled: true, thresholds: { lines: 90 } }))).toEqual({
      failedByTestsAlone: false,
      notTestsAlone: 'coverage thresholds are set, which Vitest checks only when no test failed',
    });
  });

  it('is not vouched for without Vitest', () => {
    expect(testsAlone(undefined)).toEqual({ failedByTestsAlone: false });
  });
});
