import { failedLine, quarantinedPart } from './lines.js';
import {
  everyFailureQuarantined,
  LISTED,
  type NamedTest,
  type NotQuarantined,
  type QuarantineOutcome,
} from './outcome.js';
import type { VerdictPart } from './verdict-part.js';

// Whether `testrun run` may pass a command that failed: only when every failure of it was a
// quarantined test's and nothing else failed (docs/design/quarantine.md). Every doubt keeps the
// command's own exit code; each is said. What testrun run knows: how the command ended, what
// the command line is, the parts its reporters left (a summary part as each run ended, a
// verdict part as each process exited), and what the service stored.

export interface CommandEvidence {
  /** What a shell reports: the exit code, 128 + n for a signal. */
  exitCode: number;
  /** testrun was sent a cancel, a signal ended the command, or it could not be started. */
  cancelledOrNotRun: boolean;
  /** Why the command is not one test runner's (the CLI reads the command line), when it is not. */
  notOneRunner: string | undefined;
  /** The verdict parts the command's processes left. */
  verdicts: readonly VerdictPart[];
  /** The processes that left a summary part: each reported into the run, so each must have left a verdict. */
  reporterPids: readonly number[];
  /** What the service stored of the run, where it was read: failed results, and how many of them are marked quarantined. */
  stored?: { failed: number; quarantined: number } | undefined;
}

export interface CommandQuarantine {
  /** The command's failure is its quarantined tests' alone: the run is completed, and testrun run exits 0. */
  clears: boolean;
  /** What to say; undefined when quarantine had nothing to do with this command. */
  line: string | undefined;
}

export function commandQuarantine(evidence: CommandEvidence): CommandQuarantine {
  const withFailures = evidence.verdicts.filter((part) => part.failures > 0);
  if (withFailures.length === 0) {
    // No process said it had failures, yet quarantined ones are stored: one died before saying.
    const marked = evidence.stored?.quarantined ?? 0;
    if (marked === 0) return { clears: false, line: undefined };
    const doubt = firstDoubt(evidence, []) ?? 'no test runner said what its failures were';
    const stored = `the service holds ${marked} quarantined ${marked === 1 ? "test's failure" : "tests' failures"} of the run`;
    return { clears: false, line: `failed: ${stored}, but ${doubt}: the command's exit code stands` };
  }
  const merged = mergeOutcomes(withFailures);
  if (!everyFailureQuarantined(merged)) {
    const unread = merged.unread;
    return {
      clears: false,
      line: unread === undefined ? failedLine(merged) : `failed: nothing is quarantined: ${unread}`,
    };
  }
  const doubt = firstDoubt(evidence, withFailures);
  const quarantined = quarantinedPart(merged);
  if (doubt === undefined) return { clears: true, line: `passed: ${quarantined}` };
  if (evidence.exitCode === 0) return { clears: false, line: `${quarantined}, but ${doubt}` };
  return { clears: false, line: `failed: ${quarantined}, but ${doubt}: the command's exit code stands` };
}

/** The first reason not to pass the command, in the order a reader would look for it. */
function firstDoubt(evidence: CommandEvidence, withFailures: readonly VerdictPart[]): string | undefined {
  // The command's exit code is its one runner's (notOneRunner): a process's own, read in its
  // `exit` listener, is not always final there (Jest and Mocha set theirs in exit listeners
  // of their own, after ours), so it is compared only where it says more than the command's.
  const { verdicts } = evidence;
  if (evidence.cancelledOrNotRun) return 'the command was cancelled, ended by a signal, or did not run';
  if (evidence.notOneRunner !== undefined) {
    return `the command is not one test runner (${evidence.notOneRunner}), so testrun cannot tell that nothing else in it failed`;
  }
  const vouched = new Set(verdicts.map((part) => part.pid));
  const silent = evidence.reporterPids.filter((pid) => !vouched.has(pid));
  if (silent.length > 0) return `a reporter's process (pid ${silent[0]}) did not say how it ended`;
  const cutShort = verdicts.find((part) => !part.ended);
  if (cutShort) return `${cutShort.runner} exited (code ${cutShort.exitCode}) before its run ended`;
  const unsure = withFailures.find((part) => !part.testsAlone);
  if (unsure) return unsure.doubt ?? `${unsure.runner} may fail the run for more than its failed tests`;
  const failedAlone = verdicts.find((part) => part.failures === 0 && part.exitCode !== 0);
  if (failedAlone) return `${failedAlone.runner} exited ${failedAlone.exitCode} with no failed test`;
  const stored = evidence.stored;
  if (stored && stored.failed > stored.quarantined) {
    const more = stored.failed - stored.quarantined;
    return `the service holds ${more} failed ${more === 1 ? 'result' : 'results'} of the run not marked quarantined`;
  }
  return undefined;
}

/** The outcomes of every process that had failures, as one. */
export function mergeOutcomes(parts: readonly VerdictPart[]): QuarantineOutcome {
  const merged: QuarantineOutcome = {
    project: undefined,
    failures: 0,
    quarantined: [],
    quarantinedCount: 0,
    others: [],
    othersCount: 0,
    listed: 0,
    nearMisses: 0,
  };
  for (const part of parts) {
    const outcome: QuarantineOutcome = part.outcome ?? {
      project: undefined,
      failures: part.failures,
      quarantined: [],
      quarantinedCount: 0,
      others: [],
      othersCount: part.failures,
      listed: 0,
      nearMisses: 0,
      unread: 'the service did not announce quarantine for the run',
    };
    merged.project ??= outcome.project;
    merged.failures += outcome.failures;
    merged.quarantinedCount += outcome.quarantinedCount;
    merged.othersCount += outcome.othersCount;
    merged.listed = Math.max(merged.listed, outcome.listed);
    merged.nearMisses += outcome.nearMisses ?? 0;
    merged.unread ??= outcome.unread;
    take<NamedTest>(merged.quarantined, outcome.quarantined);
    take<NotQuarantined>(merged.others, outcome.others);
  }
  return merged;
}

function take<T>(into: T[], from: readonly T[]): void {
  into.push(...from.slice(0, Math.max(0, LISTED - into.length)));
}
