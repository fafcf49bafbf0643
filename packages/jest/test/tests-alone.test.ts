import type { AggregatedResult, Config } from '@jest/reporters';
import { describe, expect, it } from 'vitest';
import { testsAlone } from '../src/reporter.js';

// Whether Jest fails a run for its failed tests alone (quarantine, docs/design/quarantine.md).

const config = (more: object = {}) =>
  ({ bail: 0, collectCoverage: false, ...more }) as unknown as Config.GlobalConfig;
const results = (more: object = {}) =>
  ({ snapshot: { failure: false }, wasInterrupted: false, ...more }) as unknown as AggregatedResult;

describe("Jest's verdict, for quarantine", () => {
  it('is its failed tests alone, with nothing else that fails a Jest run', () => {
    expect(testsAlone(config(), results())).toEqual({ failedByTestsAlone: true });
    expect(testsAlone(config({ coverageThreshold: { global: { lines: 90 } } }), results())).toEqual({
      failedByTestsAlone: true,
    });
  });

  it.each([
    [config(), results({ snapshot: { failure: true } }), 'Jest failed the run on its snapshots'],
    [config({ bail: 1 }), results(), 'bail stops Jest at a failure, before every file ran'],
    [
      config({ collectCoverage: true, coverageThreshold: { global: { lines: 90 } } }),
      results(),
      'coverage thresholds are set, which Jest checks after its reporters',
    ],
  ])('is more: %#', (globalConfig, aggregated, why) => {
    expect(testsAlone(globalConfig, aggregated)).toEqual({ failedByTestsAlone: false, notTestsAlone: why });
  });

  it('is not vouched for when interrupted, or without its results', () => {
    expect(testsAlone(config(), results({ wasInterrupted: true }))).toEqual({ failedByTestsAlone: false });
    expect(testsAlone(config(), undefined)).toEqual({ failedByTestsAlone: false });
  });
});
