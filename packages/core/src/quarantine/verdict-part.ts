import fs from 'node:fs';
import path from 'node:path';
import type { QuarantineOutcome } from './outcome.js';

// What each reporter inside `testrun run` leaves for it as its process exits: how the process
// ended and what its failures were against the run's quarantine list. `testrun run` overrides
// its command's exit code only on what these say (command-verdict.ts; docs/design/quarantine.md).
// Written synchronously in the process's `exit` listener (run-end/quarantine-hand-off.ts), in
// the folder of the summary parts, as `<pid>-<random>.verdict`, whole, then renamed.

export interface VerdictPart {
  pid: number;
  /**
   * The code the process exits with, as its `exit` listener sees it: not always final there
   * (Jest and Mocha set theirs in exit listeners of their own), so only a failing code with no
   * failed test is read from it.
   */
  exitCode: number;
  /** The runner's name as its users write it. */
  runner: string;
  /** The run's end hook finished: the process did not go away mid-run. */
  ended: boolean;
  /** Failed results this process handed on. */
  failures: number;
  /** With failures in a run whose service announced quarantine: what they were. */
  outcome?: QuarantineOutcome | undefined;
  /**
   * The adapter vouched that the runner fails the run for its failed tests alone
   * (`RunnerVerdict.failedByTestsAlone`) and said nothing more (no reason outside the tests,
   * not interrupted).
   */
  testsAlone: boolean;
  /** Why it could not vouch, when it could not. */
  doubt?: string | undefined;
}

export const VERDICT_PART_SUFFIX = '.verdict';

/** Every whole verdict part in `dir`; a file that does not read as one is left out. */
export function readVerdictParts(dir: string): VerdictPart[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith(VERDICT_PART_SUFFIX));
  } catch {
    return [];
  }
  const parts: VerdictPart[] = [];
  for (const name of names.sort()) {
    try {
      const part = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as VerdictPart;
      if (typeof part?.pid === 'number' && typeof part.exitCode === 'number') parts.push(part);
    } catch {
      // Cut short: the process that wrote it is not vouched for, which the pids show.
    }
  }
  return parts;
}
