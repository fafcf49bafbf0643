import type { CanonicalStatus, DurationUnit, RawResult, TestResult } from './types.js';

/** Names longer than this are cut: services index these fields, and 10 KB titles exist. */
export const MAX_NAME_LENGTH = 1024;
export const EMPTY_NAME = '(unnamed)';
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

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
 * Control characters (NUL, newlines, tabs) become spaces, text is NFC and well formed
 * (no lone surrogates), empty names get a visible placeholder and long ones are cut on a
 * code point boundary.
 */
export function toName(value: unknown): string {
  const text = typeof value === 'string' ? value : value == null ? '' : String(value);
  // Most names are short printable ASCII, which every step below leaves as it is; this
  // check makes core several times faster at 100,000 results.
  if (text.length <= MAX_NAME_LENGTH && PLAIN_ASCII.test(text) && text.trim() !== '') return text;
  const clean = text
    .toWellFormed()
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, ' ');
  if (clean.trim() === '') return EMPTY_NAME;
  const codePoints = Array.from(clean);
  return codePoints.length > MAX_NAME_LENGTH
    ? `${codePoints.slice(0, MAX_NAME_LENGTH - 1).join('')}…`
    : clean;
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
