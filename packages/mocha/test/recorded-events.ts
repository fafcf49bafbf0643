import fs from 'node:fs';
import path from 'node:path';
import type { MochaRecord } from '../src/map-records.js';
import type { MochaRunnable, MochaSuite } from '../src/mocha-types.js';
import { preventedBy } from '../src/prevented-tests.js';

// The runner events Mocha handed a reporter, revived from what
// fixtures/recorded/recording-reporter.cjs wrote down: each runnable as it was at its event,
// its methods answering what they answered then, a hook linked to its suite again.

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded');
/** Where the recorded project is on this machine: its files' paths in the recording are under it. */
export const RECORDED_PROJECT = path.join(recorded, 'project');

interface RecordedRunnable {
  type: 'test' | 'hook';
  title: string;
  file?: string;
  duration?: number;
  state?: string;
  id: string;
  titlePath: string[];
  fullTitle: string;
  isPending?: boolean;
  currentTest?: RecordedRunnable;
  parent?: RecordedSuite;
}

interface RecordedSuite {
  title: string;
  root: boolean;
  file?: string;
  tests?: RecordedRunnable[];
  suites?: RecordedSuite[];
}

export interface MochaEvent {
  name: 'suite' | 'suite end' | 'test' | 'pass' | 'pending' | 'fail';
  test?: MochaRunnable;
  hook?: MochaRunnable;
  suite?: MochaSuite;
  error?: Error;
}

export function recording(): { version: string; events: MochaEvent[] } {
  const text = fs
    .readFileSync(path.join(recorded, 'events.json'), 'utf8')
    .replaceAll('<project>', RECORDED_PROJECT)
    .replaceAll('<repo>', path.resolve(recorded, '../../../../..'));
  const { version, events } = JSON.parse(text) as {
    version: string;
    events: (Omit<MochaEvent, 'test' | 'hook' | 'suite'> & {
      test?: RecordedRunnable;
      hook?: RecordedRunnable;
      suite?: RecordedSuite;
    })[];
  };
  return {
    version,
    events: events.map(({ test, hook, suite, ...event }) => ({
      ...event,
      ...(test && { test: reviveRunnable(test) }),
      ...(hook && { hook: reviveRunnable(hook) }),
      ...(suite && { suite: reviveSuite(suite, undefined) }),
    })),
  };
}

/** The spec files of the recorded run, as Mocha's options name them. */
export function specFiles(): string[] {
  return fs
    .readdirSync(RECORDED_PROJECT)
    .filter((file) => file.endsWith('.test.js'))
    .map((file) => path.join(RECORDED_PROJECT, file));
}

/**
 * The records the reporter keeps of the events in serial mode (reporter.ts, listen()): an
 * ended test as its outcome, a failed hook with the tests it kept from running, any other
 * failure as outside every test.
 */
export function recordsOf(events: readonly MochaEvent[]): MochaRecord[] {
  const records: MochaRecord[] = [];
  for (const { name, test, hook, error } of events) {
    if (name === 'pass' && test) records.push({ kind: 'ended', test, outcome: 'passed' });
    else if (name === 'pending' && test) records.push({ kind: 'ended', test, outcome: 'pending' });
    else if (name === 'fail' && test) records.push({ kind: 'ended', test, outcome: 'failed' });
    else if (name === 'fail' && hook)
      records.push({ kind: 'hook', hook, error, prevented: preventedBy(hook) });
    else if (name === 'fail') records.push({ kind: 'outside', error });
  }
  return records;
}

function reviveRunnable(data: RecordedRunnable, parent?: MochaSuite): MochaRunnable {
  const { titlePath, fullTitle, isPending, currentTest, parent: parentData, ...fields } = data;
  const runnable: MochaRunnable & { fullTitle: () => string } = {
    ...fields,
    titlePath: () => titlePath,
    fullTitle: () => fullTitle,
    isPending: () => isPending as boolean,
  };
  if (currentTest) runnable.ctx = { currentTest: reviveRunnable(currentTest) };
  if (parentData) runnable.parent = reviveSuite(parentData, undefined);
  else if (parent) runnable.parent = parent;
  return runnable;
}

function reviveSuite(data: RecordedSuite, parent: MochaSuite | undefined): MochaSuite {
  const suite: MochaSuite = { title: data.title, root: data.root, file: data.file, parent };
  if (data.tests) suite.tests = data.tests.map((test) => reviveRunnable(test, suite));
  if (data.suites) suite.suites = data.suites.map((child) => reviveSuite(child, suite));
  return suite;
}
