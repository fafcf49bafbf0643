import fs from 'node:fs';
import path from 'node:path';
import { QUARANTINE_EXTENSION } from '../extensions.js';
import type { QuarantineOutcome, QuarantineWatch, VerdictPart } from '../quarantine/index.js';
import { randomUUID } from '../random-uuid.js';
import { FILE_FAILURE_CASE, RUN_SUITE } from '../results/result-name.js';
import type { TestResult } from '../types.js';

// The hand-off from a reporter to quarantine (docs/design/quarantine.md). Quarantine itself is a
// bundle of its own (quarantine/), imported here, and only here, once a test failed in a run
// whose service announced quarantine: a run that passes, or whose service announces none,
// loads none of it and reads no list.

type QuarantineModule = typeof import('../quarantine/index.js');
let quarantineModule: Promise<QuarantineModule> | undefined;

/** The quarantine bundle, loaded once, when first needed. */
export function loadQuarantine(): Promise<QuarantineModule> {
  quarantineModule ??= import('../quarantine/index.js');
  return quarantineModule;
}

/** What the hand-off needs of the run's session (delivery/run-session.ts). */
export interface QuarantineSession {
  /** What the run's service announced, once known: undefined when the run was not created, or is a bare id. */
  announced(): Promise<readonly string[] | undefined>;
  /** `GET {base}/api/v1/runs/{runId}/quarantine`. */
  readQuarantineList(): Promise<{ ok: true; body: string } | { ok: false; problem: string }>;
  /** Sets what each batch holding a failed result goes through before its first attempt. */
  markWith(marker: (body: string) => Promise<string>): void;
}

/**
 * One run's quarantine in a reporter, made at the run's first failed result: it learns whether
 * the service announced quarantine, and only then loads the bundle, reads the list, judges
 * each failure and marks what is sent. Never throws: a problem means nothing is quarantined.
 */
export class QuarantineHandOff {
  private watch: QuarantineWatch | undefined;
  private readonly ready: Promise<QuarantineWatch | undefined>;
  private waiting: TestResult[] = [];

  constructor(
    session: QuarantineSession,
    private readonly failedStatus: string,
  ) {
    this.ready = session
      .announced()
      .then(async (extensions) => {
        if (!extensions?.includes(QUARANTINE_EXTENSION)) return undefined;
        const { QuarantineWatch } = await loadQuarantine();
        const watch = new QuarantineWatch({
          failedStatus,
          notTests: { fileFailureCase: FILE_FAILURE_CASE, runSuite: RUN_SUITE },
          read: () => session.readQuarantineList(),
        });
        watch.add(this.waiting);
        this.waiting = [];
        this.watch = watch;
        return watch;
      })
      .catch(() => undefined);
    session.markWith(async (body) => {
      const watch = await this.ready;
      return watch ? watch.mark(body) : body;
    });
  }

  /** Results handed on; only the failed ones are kept while the bundle loads. */
  add(results: readonly TestResult[]): void {
    if (this.watch) {
      this.watch.add(results);
      return;
    }
    for (const result of results) if (result.status === this.failedStatus) this.waiting.push(result);
  }

  /**
   * The failures against the list, once it is known or `giveUp` settles; undefined when the
   * service announced no quarantine (or the run was never created): nothing is quarantined,
   * and there is nothing to say about it.
   */
  async outcome(giveUp: Promise<void>, late: string): Promise<QuarantineOutcome | undefined> {
    const watch = await Promise.race([this.ready, giveUp.then(() => undefined)]);
    return watch?.outcome(giveUp, late);
  }

  /** Whether a failure was a quarantined test's, for the CI summary's marks. */
  isQuarantined(testSuite: string, testCase: string): boolean {
    return this.watch?.isQuarantined(testSuite, testCase) ?? false;
  }
}

/** As the quarantine bundle reads them (quarantine/verdict-part.ts, which a test holds to this). */
export const VERDICT_PART_SUFFIX = '.verdict';

/**
 * Leaves this process's verdict part for `testrun run` (quarantine/verdict-part.ts),
 * synchronously: called from the process's `exit` listener. Never throws.
 */
export function leaveVerdictPart(dir: string, part: VerdictPart): void {
  try {
    const name = `${process.pid}-${randomUUID()}`;
    const open = path.join(dir, `${name}.tmp`);
    fs.writeFileSync(open, JSON.stringify(part));
    fs.renameSync(open, path.join(dir, `${name}${VERDICT_PART_SUFFIX}`));
  } catch {
    // testrun run then keeps the command's exit code: no verdict is a doubt.
  }
}
