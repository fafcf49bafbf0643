// What one process's failed results were, against its run's quarantine list: the quarantined
// tests' failures, the others with why each is not one, or why nothing could be quarantined
// (docs/design/quarantine.md). Plain data: a part file carries it to `testrun run` as it is.

export interface NamedTest {
  testSuite: string;
  testCase: string;
}

/** A failure that fails the build, and why it is not quarantined. */
export interface NotQuarantined extends NamedTest {
  why: string;
}

export interface QuarantineOutcome {
  /** The project the list is of, as the service said. */
  project: string | undefined;
  /** Failed results handed on. */
  failures: number;
  /** The first LISTED quarantined tests' failures, and how many there were. */
  quarantined: NamedTest[];
  quarantinedCount: number;
  /** The first LISTED failures that are not, each with why, and how many there were. */
  others: NotQuarantined[];
  othersCount: number;
  /** Tests the list held (quarantined or expired): none, and a failure is no news… */
  listed: number;
  /** …unless it was quarantined once (expired), or is in another project: news, said. */
  nearMisses: number;
  /** Why the list could not be read (then nothing is quarantined). */
  unread?: string | undefined;
}

/** Tests an outcome names of each kind; the rest are counted. */
export const LISTED = 10;

/** Every failure was a quarantined test's, and there was at least one. */
export function everyFailureQuarantined(outcome: QuarantineOutcome): boolean {
  return (
    outcome.failures > 0 &&
    outcome.unread === undefined &&
    outcome.othersCount === 0 &&
    outcome.quarantinedCount === outcome.failures
  );
}
