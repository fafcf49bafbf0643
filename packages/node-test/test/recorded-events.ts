import fs from 'node:fs';
import path from 'node:path';
import type { FileReport } from '@testrun/core';
import { FileStderr, mapOutermostTest, type TestEvent } from '../src/map-events.js';

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
    if (event.type === 'test:stderr') continue;
    unit.push(event);
    if (event.type !== 'test:start' && event.data.nesting === 0) {
      units.push(unit);
      unit = [];
    }
  }
  return units;
}

/**
 * Each outermost test's FileReport, in order, as the reporter makes them: with what each
 * file printed to stderr before (FileStderr), forgotten once one of its outermost tests ended.
 */
export function reportsOf(events: readonly TestEvent[], cwd: string): (FileReport | undefined)[] {
  const stderr = new FileStderr();
  const reports: (FileReport | undefined)[] = [];
  let unit: TestEvent[] = [];
  for (const event of events) {
    if (event.type === 'test:stderr') {
      stderr.keep(event.data.file, event.data.message);
      continue;
    }
    unit.push(event);
    if (event.type === 'test:start' || event.data.nesting !== 0) continue;
    const report = mapOutermostTest(unit, cwd, (file) => stderr.of(file));
    if (report) stderr.forget(report.file);
    reports.push(report);
    unit = [];
  }
  return reports;
}
