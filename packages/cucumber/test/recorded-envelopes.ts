import fs from 'node:fs';
import path from 'node:path';
import { type RawTest, TITLE_SEPARATOR } from '@testrun/core';
import { EnvelopeMapping, type RunEnd, type RunHints } from '../src/map-envelopes.js';
import type { Envelope } from '../src/messages.js';

// Cucumber's messages as a formatter received them, recorded by
// fixtures/recorded/record.mjs, replayed through the mapping one envelope at a time.

const recordings = path.join(import.meta.dirname, 'fixtures', 'recorded', 'recordings');

export type Recording = 'serial' | 'parallel' | 'dry-run' | 'no-strict' | 'unparsable';

export function envelopesOf(recording: Recording): Envelope[] {
  return fs
    .readFileSync(path.join(recordings, `${recording}.ndjson`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Envelope);
}

/** What the sink was handed, in order: `uri | testCase | status` per scenario, and the rest as they came. */
export interface Replayed {
  results: string[];
  durations: Map<string, unknown>;
  /** Why each failed scenario (or file Cucumber could not parse) failed, as handed to core. */
  failures: Map<string, RawTest['failure']>;
  /** How many attempts each scenario that passed on a retry took, as handed to core. */
  attempts: Map<string, unknown>;
  end: RunEnd | undefined;
}

export function replay(
  envelopes: readonly Envelope[],
  hints: RunHints = {},
  { stopAfter = envelopes.length, flush = false } = {},
): Replayed {
  const results: string[] = [];
  const durations = new Map<string, unknown>();
  const failures = new Map<string, RawTest['failure']>();
  const attempts = new Map<string, unknown>();
  let end: RunEnd | undefined;
  const mapping = new EnvelopeMapping(
    {
      scenario: (uri, test) => {
        const name = `${uri} | ${test.titles.join(TITLE_SEPARATOR)}`;
        results.push(`${name} | ${test.status}`);
        durations.set(name, test.duration);
        if (test.failure) failures.set(name, test.failure);
        if (test.attempts !== undefined) attempts.set(name, test.attempts);
      },
      fileFailed: (uri, failure) => {
        results.push(`${uri} | (file failed to run)`);
        failures.set(`${uri} | (file failed to run)`, failure);
      },
      runError: (message) => results.push(`(run) | ${message}`),
    },
    hints,
  );
  for (const envelope of envelopes.slice(0, stopAfter)) end = mapping.add(envelope) ?? end;
  if (flush) mapping.flush();
  return { results, durations, failures, attempts, end };
}
