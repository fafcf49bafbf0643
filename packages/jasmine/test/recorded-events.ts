import fs from 'node:fs';
import path from 'node:path';
import type { JasmineDoneInfo, JasmineResult } from '../src/jasmine-types.js';
import type { JasmineEvent } from '../src/map-events.js';

// The reporter events Jasmine handed a reporter, as fixtures/recorded/recording-reporter.cjs
// wrote them down, with this machine's paths put back.

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded');
/** Where the recorded project is on this machine: its files' paths in the recording are under it. */
export const RECORDED_PROJECT = path.join(recorded, 'project');

export type Mode = 'serial' | 'parallel';

/** events.json (a serial run, in declaration order) or parallel-events.json (--parallel=2, as the main process got them). */
export function recording(mode: Mode): { version: string; events: JasmineEvent[] } {
  const text = fs
    .readFileSync(path.join(recorded, mode === 'serial' ? 'events.json' : 'parallel-events.json'), 'utf8')
    .replaceAll('<project>', RECORDED_PROJECT)
    .replaceAll('<repo>', path.resolve(recorded, '../../../../..'));
  const { version, events } = JSON.parse(text) as {
    version: string;
    events: { name: JasmineEvent['name']; payload: JasmineResult & JasmineDoneInfo }[];
  };
  return {
    version,
    events: events.map(({ name, payload }) =>
      name === 'jasmineDone' ? { name, info: payload } : { name, result: payload },
    ),
  };
}

/** Whether the reporter hands core what it holds after this event: a top-level block or spec ended. */
export function endsTopLevelBlock(event: JasmineEvent): boolean {
  return (event.name === 'specDone' || event.name === 'suiteDone') && event.result.parentSuiteId == null;
}
