// What a CI summary says of a run's results, counted as they go by: each result is looked at
// once and dropped, so a run of 100,000 results holds a few dozen of them here, whatever
// their size. The same tally is made from what a reporter sends, from the parts the reporters
// of one command left (parts.ts), and from what a service answers to reads (read-run.ts).
// This module and the rest of summary/ import only types from outside summary/: it is a
// bundle of its own, loaded only when a summary is written (docs/design/ci-summary.md#the-tally).

/** The failed and flaky tests a summary lists by name; the rest are counted. */
export const LISTED_TESTS = 10;
/** The slowest tests a summary lists. */
export const SLOWEST_TESTS = 5;
/** Distinct statuses counted by name; a service answering more has them counted as one. */
export const MAX_STATUSES = 20;
/** What the tally keeps of a name or a message, in UTF-16 code units: more than a summary shows. */
export const KEPT_TEXT = 1_000;

/** A test a summary names: its file, its name, and what it says of it. */
export interface ListedTest {
  testSuite: string;
  testCase: string;
  /** Milliseconds. */
  duration: number;
  /** A failed test's message, its first line only. */
  message?: string;
  /** How many times it ran, when the runner said (flaky: 2 or more, and passed). */
  attempts?: number;
  /** A failure of a quarantined test: listed, and it did not fail the build (docs/design/quarantine.md). */
  quarantined?: true;
}

/** The tally as data: what a part file holds, and what the summary is rendered from. */
export interface TallyData {
  total: number;
  /** Results by status, as sent (the service's status strings). */
  counts: Record<string, number>;
  /** Results of statuses past MAX_STATUSES. */
  otherStatuses: number;
  failedCount: number;
  /** Of the failed results, those of quarantined tests. */
  quarantinedCount: number;
  /** The first LISTED_TESTS failed results, in the order they came. */
  failed: ListedTest[];
  /** Passed on a retry. */
  flakyCount: number;
  flaky: ListedTest[];
  /** The SLOWEST_TESTS longest results that ran (never a skipped one), longest first. */
  slowest: ListedTest[];
}

/** What tells a result's kind: the status strings results are sent with (`statusMap`). */
export interface StatusWords {
  passed: string;
  failed: string;
  skipped: string;
  todo: string;
}

/** A result as sent and as a service answers it: the spec's four fields and the details. */
export interface TalliedResult {
  testSuite: string;
  testCase: string;
  status: string;
  duration: number;
  details?: { message?: string | undefined; attempts?: number | undefined } | undefined;
  /** Marked quarantined where the service takes the mark (the `quarantine` extension). */
  quarantined?: boolean | undefined;
}

export class RunTally {
  private readonly data: TallyData = emptyTally();
  /** Durations are sent in this unit (`durationUnit`); the tally keeps milliseconds. */
  private readonly toMs: number;

  constructor(
    private readonly words: StatusWords,
    durationUnit: 'ms' | 's' = 'ms',
  ) {
    this.toMs = durationUnit === 's' ? 1000 : 1;
  }

  add(result: TalliedResult): void {
    const { data, words } = this;
    data.total += 1;
    if (Object.hasOwn(data.counts, result.status) || Object.keys(data.counts).length < MAX_STATUSES) {
      data.counts[result.status] = (data.counts[result.status] ?? 0) + 1;
    } else {
      data.otherStatuses += 1;
    }
    const duration = Number.isFinite(result.duration) ? Math.max(0, result.duration * this.toMs) : 0;
    if (result.status === words.failed) {
      data.failedCount += 1;
      if (result.quarantined === true) data.quarantinedCount += 1;
      if (data.failed.length < LISTED_TESTS) data.failed.push(listed(result, duration, true));
    } else if (result.status === words.passed && (result.details?.attempts ?? 1) >= 2) {
      data.flakyCount += 1;
      if (data.flaky.length < LISTED_TESTS) data.flaky.push(listed(result, duration, false));
    }
    if (result.status !== words.skipped && result.status !== words.todo) {
      keepIfSlowest(data.slowest, duration, () => listed(result, duration, false));
    }
  }

  addAll(results: readonly TalliedResult[]): void {
    for (const result of results) this.add(result);
  }

  /** Adds a tally made elsewhere (another reporter's part). */
  merge(other: TallyData): void {
    const { data } = this;
    data.total += other.total;
    data.otherStatuses += other.otherStatuses;
    for (const [status, count] of Object.entries(other.counts)) {
      if (Object.hasOwn(data.counts, status) || Object.keys(data.counts).length < MAX_STATUSES) {
        data.counts[status] = (data.counts[status] ?? 0) + count;
      } else {
        data.otherStatuses += count;
      }
    }
    data.failedCount += other.failedCount;
    // A part left by an older reporter has no count of quarantined failures: none.
    data.quarantinedCount += other.quarantinedCount ?? 0;
    data.failed.push(...other.failed.slice(0, LISTED_TESTS - data.failed.length));
    data.flakyCount += other.flakyCount;
    data.flaky.push(...other.flaky.slice(0, LISTED_TESTS - data.flaky.length));
    for (const test of other.slowest) keepIfSlowest(data.slowest, test.duration, () => test);
  }

  /**
   * Marks the failed tests listed that were quarantined tests', and sets how many failures
   * were: for a reporter's own tally, whose results were judged after they were counted.
   */
  markQuarantined(isQuarantined: (testSuite: string, testCase: string) => boolean, count: number): void {
    for (const test of this.data.failed) {
      if (isQuarantined(test.testSuite, test.testCase)) test.quarantined = true;
    }
    this.data.quarantinedCount = count;
  }

  toJSON(): TallyData {
    return structuredClone(this.data);
  }
}

export function emptyTally(): TallyData {
  return {
    total: 0,
    counts: {},
    otherStatuses: 0,
    failedCount: 0,
    quarantinedCount: 0,
    failed: [],
    flakyCount: 0,
    flaky: [],
    slowest: [],
  };
}

function listed(result: TalliedResult, duration: number, withMessage: boolean): ListedTest {
  const test: ListedTest = {
    testSuite: keep(result.testSuite),
    testCase: keep(result.testCase),
    duration,
  };
  const message = result.details?.message;
  if (withMessage && typeof message === 'string' && message.trim() !== '') {
    test.message = keep(firstLine(message));
  }
  const attempts = result.details?.attempts;
  if (typeof attempts === 'number' && attempts >= 2) test.attempts = attempts;
  if (withMessage && result.quarantined === true) test.quarantined = true;
  return test;
}

/** The first line that says something: a message may start with a blank line. */
export function firstLine(text: string): string {
  return (
    text
      .split(/\r\n|\r|\n/)
      .map((line) => line.trim())
      .find((line) => line !== '') ?? ''
  );
}

/** At most KEPT_TEXT code units, never half a surrogate pair. */
function keep(text: string): string {
  if (typeof text !== 'string') return String(text);
  if (text.length <= KEPT_TEXT) return text;
  const end = /[\ud800-\udbff]/.test(text[KEPT_TEXT - 1]!) ? KEPT_TEXT - 1 : KEPT_TEXT;
  return text.slice(0, end);
}

/** Keeps the SLOWEST_TESTS longest, longest first; ties in the order they came. */
function keepIfSlowest(kept: ListedTest[], duration: number, make: () => ListedTest): void {
  const last = kept[kept.length - 1];
  if (kept.length === SLOWEST_TESTS && (last === undefined || duration <= last.duration)) return;
  let at = kept.length;
  while (at > 0 && kept[at - 1]!.duration < duration) at -= 1;
  kept.splice(at, 0, make());
  if (kept.length > SLOWEST_TESTS) kept.pop();
}
