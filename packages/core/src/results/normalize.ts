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

/**
 * The longest duration sent, in milliseconds: 2^31 - 1, 24.8 days. The spec says only that a
 * duration is a number; this is the largest a service that keeps milliseconds in a 32-bit
 * integer (a common column type) can take, and far longer than any CI job may run (GitHub
 * Actions ends a self-hosted runner's job after 5 days). A longer one is a clock or unit gone
 * wrong (`duration_ms: 1e308`), and a service that refused it would refuse its whole batch.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** A duration in milliseconds that is sent as it is: a finite number from 0 to MAX_DURATION_MS. */
export function isPlausibleDuration(ms: unknown): ms is number {
  return typeof ms === 'number' && ms >= 0 && ms <= MAX_DURATION_MS;
}

/**
 * Milliseconds in, the configured unit out; anything not a plausible duration (NaN, negative,
 * missing, above MAX_DURATION_MS) is 0, as for a test that did not run: unknown, not a guess.
 */
export function toDuration(value: unknown, unit: DurationUnit): number {
  const ms = isPlausibleDuration(value) ? value : 0;
  return unit === 's' ? round(ms / 1000, 6) : round(ms, 3);
}

/** A duration already in the configured unit (what `mapResult` returns): kept when plausible, else 0; not converted. */
export function toDurationIn(value: unknown, unit: DurationUnit): number {
  if (typeof value !== 'number') return 0;
  const plausible = isPlausibleDuration(unit === 's' ? value * 1000 : value);
  return plausible ? round(value, unit === 's' ? 6 : 3) : 0;
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
