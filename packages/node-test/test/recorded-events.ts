import fs from 'node:fs';
import path from 'node:path';
import type { TestEvent } from '../src/map-events.js';

// The events node:test handed a reporter, read back from what
// fixtures/recorded/recording-reporter.mjs wrote down (they are data; an error in them is
// written as its fields).

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded');
/** Where the recorded project is on this machine, and the working directory of its run. */
export const RECORDED_PROJECT = path.join(recorded, 'project');

export function recording(): { version: string; events: TestEvent[] } {
  const text = fs
    .readFileSync(path.join(recorded, 'events.json'), 'utf8')
    .replaceAll('<project>', RECORDED_PROJECT)
    .replaceAll('<repo>', path.resolve(recorded, '../../../../..'));
  return JSON.parse(text) as { version: string; events: TestEvent[] };
}

/**
 * The events of each outermost test, as the reporter hands them to mapOutermostTest
 * (reporter.ts): everything up to and including the end of a test at nesting 0.
 */
export function outermostTests(events: readonly TestEvent[]): TestEvent[][] {
  const units: TestEvent[][] = [];
  let unit: TestEvent[] = [];
  for (const event of events) {
    unit.push(event);
    if (event.type !== 'test:start' && event.data.nesting === 0) {
      units.push(unit);
      unit = [];
    }
  }
  return units;
}
