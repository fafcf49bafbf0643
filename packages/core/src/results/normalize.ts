import type { CanonicalStatus, DurationUnit, RawResult, TestResult } from '../types.js';
import { toName } from './result-name.js';

export interface NormalizeOptions {
  statusMap: Record<CanonicalStatus, string>;
  durationUnit: DurationUnit;
}

/** A result the service can store whatever the framework gave us: four fields, clean values. */
export function toResult(raw: RawResult, options: NormalizeOptions): TestResult {
  return {
    testSuite: toName(raw.testSuite),
    testCase: toName(raw.testCase),
    status: options.statusMap[raw.status] ?? options.statusMap.failed,
    duration: toDuration(raw.duration, options.durationUnit),
  };
}

/** Milliseconds in, the configured unit out; anything not a finite non-negative number is 0. */
export function toDuration(value: unknown, unit: DurationUnit): number {
  const ms = typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  return unit === 's' ? round(ms / 1000, 6) : round(ms, 3);
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
