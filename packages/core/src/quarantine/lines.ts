import {
  everyFailureQuarantined,
  type NamedTest,
  type NotQuarantined,
  type QuarantineOutcome,
} from './outcome.js';

// The one line that says what quarantine did to a build (docs/quarantine.md): passed because
// every failure was a quarantined test's, or failed, and why not, naming the tests.

/** Names said in a line, at most; the rest are counted. */
const NAMED = 3;
/** Characters of a name said in a line. */
const NAME_CHARS = 120;

export interface ReporterVerdictHow {
  /** The run passes here: every failure was quarantined, and the runner takes its verdict from the reporter. */
  passes: boolean;
  /** The runner takes its verdict from the reporter (Playwright's onEnd, Mocha's done). */
  decides: boolean;
  /** Why the adapter cannot vouch that nothing but the failed tests fails the run, if it cannot. */
  doubt: string | undefined;
  /**
   * The runner's name as its users write it; undefined for results read from a report of a
   * run that has ended (`testrun upload`), whose exit code is not this process's.
   */
  runner: string | undefined;
}

/**
 * The line a reporter says at the end of a run of its own: undefined when there is nothing to
 * say (no failure, or a failure in a project that quarantines nothing).
 */
export function reporterLine(outcome: QuarantineOutcome, how: ReporterVerdictHow): string | undefined {
  if (outcome.failures === 0) return undefined;
  if (outcome.unread !== undefined) return `failed: nothing is quarantined: ${outcome.unread}`;
  const quarantined = quarantinedPart(outcome);
  if (everyFailureQuarantined(outcome)) {
    if (how.runner === undefined) return `${quarantined}: stored marked quarantined`;
    if (how.passes) return `passed: ${quarantined}`;
    if (how.doubt) return `failed: ${quarantined}, but ${how.doubt}: ${how.runner}'s verdict stands`;
    return `${quarantined}; ${how.runner} fails the build for them all the same: run it under testrun run to pass it (docs/quarantine.md)`;
  }
  return failedLine(outcome);
}

/** `failed: 1 failure is not a quarantined test's: a.test.ts › b (…); 2 quarantined tests failed too (…)`, or undefined when no list held anything. */
export function failedLine(
  outcome: Pick<
    QuarantineOutcome,
    'others' | 'othersCount' | 'quarantined' | 'quarantinedCount' | 'listed' | 'nearMisses'
  >,
): string | undefined {
  // A project that quarantines nothing, whose failures were never quarantined anywhere: no news.
  if (outcome.listed === 0 && outcome.quarantinedCount === 0 && (outcome.nearMisses ?? 0) === 0) {
    return undefined;
  }
  const { othersCount } = outcome;
  const others = named(
    outcome.others,
    othersCount,
    (test: NotQuarantined) => `${nameOf(test)} (${test.why})`,
  );
  const line = `failed: ${othersCount} ${othersCount === 1 ? "failure is not a quarantined test's" : "failures are not quarantined tests'"}: ${others}`;
  return outcome.quarantinedCount > 0 ? `${line}; ${quarantinedPart(outcome, ' too')}` : line;
}

/** `2 quarantined tests failed (a.test.ts › x, b.test.ts › y)`. */
export function quarantinedPart(
  outcome: Pick<QuarantineOutcome, 'quarantined' | 'quarantinedCount'>,
  too = '',
): string {
  const count = outcome.quarantinedCount;
  return `${count} quarantined ${count === 1 ? 'test' : 'tests'} failed${too} (${named(outcome.quarantined, count, nameOf)})`;
}

/** `a.test.ts › cart > adds`. */
export function nameOf(test: NamedTest): string {
  return `${cut(test.testSuite)} › ${cut(test.testCase)}`;
}

function named<T>(tests: readonly T[], count: number, say: (test: T) => string): string {
  const shown = tests.slice(0, NAMED).map(say);
  const more = count - shown.length;
  return more > 0 ? `${shown.join(', ')}, and ${more} more` : shown.join(', ');
}

function cut(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length <= NAME_CHARS ? oneLine : `${oneLine.slice(0, NAME_CHARS - 1)}…`;
}
