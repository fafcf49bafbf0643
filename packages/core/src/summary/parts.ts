import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TallyData } from './tally.js';

// A process that hands its run to others (`testrun run` to its command, WebdriverIO's
// launcher to its workers) names a folder in TESTRUN_SUMMARY_PARTS; each reporter in them
// leaves there, as its run ends, what it sent: its tally and where its results went. The
// process that ends the run reads them when the service offers no reads of a run, or could
// not be reached (docs/design/ci-summary.md#the-tally).

/** What one reporter leaves for the process that writes the summary. */
export interface SummaryPart {
  /** The run it sent into, as it knew it; undefined when the run was never created. */
  runId: string | undefined;
  tally: TallyData;
  delivered: number;
  spooled: number;
  /** The spool file, when results wait in it. */
  spoolFile: string | undefined;
  /** The run ended before this reporter's (a signal, process.exit): its tally is what had finished. */
  cutShort?: boolean;
  /** The process that left it: it leaves a verdict part too as it exits (quarantine/verdict-part.ts). */
  pid?: number;
}

/** Writes `part` into `dir` as a file of its own; the name is taken only once it is whole (a rename). */
export function writePart(dir: string, part: SummaryPart): void {
  const name = `${process.pid}-${randomUUID()}`;
  const open = path.join(dir, `${name}.tmp`);
  fs.writeFileSync(open, JSON.stringify({ ...part, pid: process.pid }));
  fs.renameSync(open, path.join(dir, `${name}.json`));
}

/** Every whole part in `dir`; a file that does not read as one is left out. */
export function readParts(dir: string): SummaryPart[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const parts: SummaryPart[] = [];
  for (const name of names.sort()) {
    try {
      const part = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as SummaryPart;
      if (part && typeof part === 'object' && part.tally && typeof part.tally.total === 'number')
        parts.push(part);
    } catch {
      // A part cut short by a crash: the others still count.
    }
  }
  return parts;
}
