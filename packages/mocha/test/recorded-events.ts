import fs from 'node:fs';
import path from 'node:path';
import type { MochaRecord } from '../src/map-records.js';
import type { MochaRunnable, MochaSuite } from '../src/mocha-types.js';
import { PREVENTED_EVENT, preventedBy } from '../src/prevented-tests.js';

// The runner events Mocha handed a reporter, revived from what
// fixtures/recorded/recording-reporter.cjs wrote down: each runnable as it was at its event,
// with the methods it had answering what they answered then, a hook linked to its suite again.

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded');
/** Where the recorded project is on this machine: its files' paths in the recording are under it. */
export const RECORDED_PROJECT = path.join(recorded, 'project');

/** What each method answered (undefined as null); a method the object lacked is not there. */
type Answers = Partial<Record<'titlePath' | 'fullTitle' | 'isPending', unknown>>;

interface RecordedRunnable {
  type: 'test' | 'hook';
  title: string;
  file?: string;
  duration?: number;
  state?: string;
  id?: string;
  __mocha_id__?: string;
  answers: Answers;
  currentTest?: RecordedRunnable;
  parent?: RecordedSuite;
}

interface RecordedSuite {
  title?: string;
  root?: boolean;
  file?: string;
  __mocha_id__?: string;
  answers: Answers;
  tests?: RecordedRunnable[];
  suites?: RecordedSuite[];
}

export interface MochaEvent {
  name: 'suite' | 'suite end' | 'test' | 'pass' | 'pending' | 'fail' | typeof PREVENTED_EVENT;
  test?: MochaRunnable;
  hook?: MochaRunnable;
  suite?: MochaSuite;
  error?: Error;
  /** PREVENTED_EVENT's: the tests a failed hook kept from running, as a worker names them. */
  tests?: MochaRunnable[];
}

export type Mode = 'serial' | 'parallel';

/** events.json (a serial run) or parallel-events.json (--parallel: the main process's copies of the workers' objects). */
export function recording(mode: Mode): { version: string; mode: Mode; events: MochaEvent[] } {
  const text = fs
    .readFileSync(path.join(recorded, mode === 'serial' ? 'events.json' : 'parallel-events.json'), 'utf8')
    .replaceAll('<project>', RECORDED_PROJECT)
    .replaceAll('<repo>', path.resolve(recorded, '../../../../..'));
  const { version, events } = JSON.parse(text) as {
    version: string;
    events: (Omit<MochaEvent, 'test' | 'hook' | 'suite' | 'tests'> & {
      test?: RecordedRunnable;
      hook?: RecordedRunnable;
      suite?: RecordedSuite;
      tests?: RecordedRunnable[];
    })[];
  };
  return {
    version,
    mode,
    events: events.map(({ test, hook, suite, tests, ...event }) => ({
      ...event,
      ...(test && { test: reviveRunnable(test) }),
      ...(hook && { hook: reviveRunnable(hook) }),
      ...(suite && { suite: reviveSuite(suite, undefined) }),
      ...(tests && { tests: tests.map((prevented) => reviveRunnable(prevented)) }),
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
 * The records the reporter keeps of the events (reporter.ts, listen()): an ended test as its
 * outcome, a failed hook with the tests it kept from running (in serial mode found then by
 * preventedBy, in parallel mode named by the worker's event that follows), any other
 * failure as outside every test.
 */
export function recordsOf(events: readonly MochaEvent[], mode: Mode): MochaRecord[] {
  const records: MochaRecord[] = [];
  for (const { name, test, hook, error, tests } of events) {
    if (name === 'pass' && test) records.push({ kind: 'ended', test, outcome: 'passed' });
    else if (name === 'pending' && test) records.push({ kind: 'ended', test, outcome: 'pending' });
    else if (name === 'fail' && test) records.push({ kind: 'ended', test, outcome: 'failed', error });
    else if (name === 'fail' && hook) {
      records.push({ kind: 'hook', hook, error, prevented: mode === 'serial' ? preventedBy(hook) : [] });
    } else if (name === 'fail') records.push({ kind: 'outside', error });
    else if (name === PREVENTED_EVENT && tests) {
      const last = records.at(-1);
      if (last?.kind === 'hook') last.prevented = tests;
    }
  }
  return records;
}

/** An object with the recorded fields, and the methods it had answering as they did. */
function withAnswers<T extends object>(fields: T, answers: Answers): T {
  const object = { ...fields } as Record<string, unknown>;
  for (const [name, answer] of Object.entries(answers)) object[name] = () => answer ?? undefined;
  return object as T;
}

function reviveRunnable(data: RecordedRunnable, parent?: MochaSuite): MochaRunnable {
  const { answers, currentTest, parent: parentData, ...fields } = data;
  const runnable: MochaRunnable = withAnswers(fields, answers);
  if (currentTest) runnable.ctx = { currentTest: reviveRunnable(currentTest) };
  if (parentData) runnable.parent = reviveSuite(parentData, undefined);
  else if (parent) runnable.parent = parent;
  return runnable;
}

function reviveSuite(data: RecordedSuite, parent: MochaSuite | undefined): MochaSuite {
  const { answers, tests, suites, ...fields } = data;
  const suite: MochaSuite = withAnswers({ ...fields, parent }, answers);
  if (tests) suite.tests = tests.map((test) => reviveRunnable(test, suite));
  if (suites) suite.suites = suites.map((child) => reviveSuite(child, suite));
  return suite;
}
