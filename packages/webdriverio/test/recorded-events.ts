import fs from 'node:fs';
import path from 'node:path';
import type { WdioEvent } from '../src/wdio-events.js';

// The events WebdriverIO handed a reporter, as the recording reporter wrote them down
// (fixtures/recorded), with this machine's paths put back.

const recorded = path.join(import.meta.dirname, 'fixtures', 'recorded', 'recordings');
const repo = path.resolve(import.meta.dirname, '../../..');
/** Where the recorded fixtures are on this machine. */
export const FIXTURES = path.join(repo, 'packages', 'test-utils', 'fixtures', 'webdriverio');

export type Recording = 'mocha' | 'mocha-retried' | 'jasmine' | 'cucumber';

/** Each worker's events, by worker id; a retried spec file's attempts one after the other. */
export function recording(name: Recording): Record<string, WdioEvent[]> {
  const dir = path.join(recorded, name);
  const workers: Record<string, WdioEvent[]> = {};
  for (const file of fs.readdirSync(dir).sort()) {
    const text = fs
      .readFileSync(path.join(dir, file), 'utf8')
      .replaceAll('<fixtures>', FIXTURES)
      .replaceAll('<repo>', repo);
    workers[path.basename(file, '.jsonl')] = text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { event, payload } = JSON.parse(line) as { event: string; payload: never };
        return { name: event, payload } as WdioEvent;
      });
  }
  return workers;
}

/** A worker's events cut into its attempts, each from its runner:start to its runner:end. */
export function attempts(events: readonly WdioEvent[]): WdioEvent[][] {
  const cut: WdioEvent[][] = [];
  for (const event of events) {
    if (event.name === 'runner:start') cut.push([]);
    cut.at(-1)?.push(event);
  }
  return cut;
}
