import { type QuarantineList, readQuarantineList } from './list.js';
import { LISTED, type NamedTest, type NotQuarantined, type QuarantineOutcome } from './outcome.js';
import { testKey } from './test-key.js';

// One run's failed results in one process, against the run's quarantine list
// (docs/design/quarantine.md). Made when the first test failed in a run whose service
// announced quarantine: the list is read then, once, and each failed result is judged once it
// is known. What is sent is marked here too (`mark`): a quarantined test's failure goes out
// `quarantined: true`.

export interface QuarantineWatchInit {
  /** The status failed results are sent with (`statusMap.failed`). */
  failedStatus: string;
  /** The names core gives what is no test: never quarantined, whatever the list says. */
  notTests: { fileFailureCase: string; runSuite: string };
  /** `GET {base}/api/v1/runs/{runId}/quarantine`, made by the caller with its client. */
  read: () => Promise<{ ok: true; body: string } | { ok: false; problem: string }>;
}

interface Sent {
  testSuite: string;
  testCase: string;
  status: string;
  quarantined?: boolean;
}

/** Quarantined names kept for the CI summary's marks, at most. */
const KEPT_NAMES = 10_000;

export class QuarantineWatch {
  private readonly list: Promise<QuarantineList | { problem: string }>;
  private known: QuarantineList | { problem: string } | undefined;
  /** Failed results that came before the list. */
  private waiting: NamedTest[] = [];
  private readonly outcomeSoFar: Omit<QuarantineOutcome, 'project' | 'listed' | 'unread'> = {
    failures: 0,
    quarantined: [],
    quarantinedCount: 0,
    others: [],
    othersCount: 0,
    nearMisses: 0,
  };
  private readonly quarantinedNames = new Set<string>();

  constructor(private readonly init: QuarantineWatchInit) {
    this.list = init
      .read()
      .then(
        (answer) => (answer.ok ? readQuarantineList(answer.body) : { problem: answer.problem }),
        (error: unknown) => ({ problem: (error as Error).message }),
      )
      .then((list) => {
        this.known = list;
        for (const test of this.waiting.splice(0)) this.judge(test);
        return list;
      });
  }

  /** Results handed on: each failed one is judged now, or once the list is known. */
  add(results: readonly Sent[]): void {
    for (const { testSuite, testCase, status } of results) {
      if (status !== this.init.failedStatus) continue;
      this.outcomeSoFar.failures += 1;
      if (this.known) this.judge({ testSuite, testCase });
      else this.waiting.push({ testSuite, testCase });
    }
  }

  /**
   * A batch's body with each quarantined test's failure marked `quarantined: true`, once the
   * list is known; the body as it is when nothing in it is quarantined (or no list came).
   */
  async mark(body: string): Promise<string> {
    const list = await this.list;
    if ('problem' in list || list.active.size === 0) return body;
    const parsed = JSON.parse(body) as { results: Sent[] };
    let marked = false;
    for (const result of parsed.results) {
      if (result.status === this.init.failedStatus && this.isTest(result) && list.active.has(keyOf(result))) {
        result.quarantined = true;
        marked = true;
      }
    }
    return marked ? JSON.stringify(parsed) : body;
  }

  /** Whether this failure was a quarantined test's (the CI summary marks it). */
  isQuarantined(testSuite: string, testCase: string): boolean {
    return this.quarantinedNames.has(JSON.stringify([testSuite, testCase]));
  }

  /**
   * What the failures were, once the list is known or `giveUp` settles (the caller's timer:
   * this bundle takes no timers of its own, which a test's fake clock could hold). A list that
   * has not come by then quarantines nothing, and the outcome says so, with `late` as why.
   */
  async outcome(giveUp: Promise<unknown>, late: string): Promise<QuarantineOutcome> {
    const list = await Promise.race([this.list, giveUp.then(() => undefined)]);
    if (list === undefined || 'problem' in list) {
      return {
        project: undefined,
        failures: this.outcomeSoFar.failures,
        quarantined: [],
        quarantinedCount: 0,
        others: [],
        othersCount: this.outcomeSoFar.failures,
        listed: 0,
        nearMisses: 0,
        unread: list === undefined ? late : `the quarantine list could not be read (${list.problem})`,
      };
    }
    return {
      project: list.project,
      ...structuredClone(this.outcomeSoFar),
      listed: list.active.size + list.expired.size,
    };
  }

  private judge(test: NamedTest): void {
    const list = this.known!;
    const so = this.outcomeSoFar;
    const why = 'problem' in list ? list.problem : this.whyNot(test, list);
    if (why === undefined) {
      so.quarantinedCount += 1;
      if (so.quarantined.length < LISTED) so.quarantined.push(test);
      if (this.quarantinedNames.size < KEPT_NAMES) {
        this.quarantinedNames.add(JSON.stringify([test.testSuite, test.testCase]));
      }
      return;
    }
    so.othersCount += 1;
    if (so.others.length < LISTED) so.others.push({ ...test, why } satisfies NotQuarantined);
  }

  /** Why a failure is not a quarantined test's; undefined when it is. */
  private whyNot(test: NamedTest, list: QuarantineList): string | undefined {
    const { fileFailureCase, runSuite } = this.init.notTests;
    if (test.testCase === fileFailureCase) return 'a file that failed to run is never quarantined';
    if (test.testSuite === runSuite) return 'an error outside the tests is never quarantined';
    const key = keyOf(test);
    if (list.active.has(key)) return undefined;
    const here = list.project === undefined ? '' : ` in project ${JSON.stringify(list.project)}`;
    const expired = list.expired.get(key);
    if (expired !== undefined) {
      this.outcomeSoFar.nearMisses += 1;
      return `its quarantine expired on ${expired.slice(0, 10)}`;
    }
    const elsewhere = list.elsewhere.get(key);
    if (elsewhere !== undefined) {
      this.outcomeSoFar.nearMisses += 1;
      return `not quarantined${here}, only in project ${JSON.stringify(elsewhere)}`;
    }
    return `not quarantined${here}`;
  }

  private isTest(test: NamedTest): boolean {
    const { fileFailureCase, runSuite } = this.init.notTests;
    return test.testCase !== fileFailureCase && test.testSuite !== runSuite;
  }
}

function keyOf(test: NamedTest): string {
  return testKey(test.testSuite, test.testCase);
}
