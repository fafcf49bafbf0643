import type { SecretPattern } from '../output/redact.js';
import type {
  AttachmentsMode,
  FailureDetails,
  FileReport,
  ProjectLabel,
  RawResult,
  RunnerVerdict,
  TestResult,
} from '../types.js';
import { wantedFiles, withFiles } from './attached-files.js';
import { retriedPassDetails, toFailureDetails } from './failure-details.js';
import type { ResultMapper, ResultSource } from './map-result.js';
import {
  FILE_FAILURE_CASE,
  RUN_SUITE,
  runErrorResult,
  toTestCase,
  toTestSuite,
  withProjectLabel,
  withVariant,
} from './result-name.js';
import { failedWithoutReason, verdictFails } from './runner-verdict.js';

/** At most this many results stand for errors outside any test and file, however many there were. */
const MAX_RUN_ERROR_RESULTS = 5;

export interface RunNaming {
  /** The framework's root directory: test files are named relative to it (result-name.ts). */
  rootDir: string;
  projectLabel: ProjectLabel;
  /**
   * How many projects the framework's configuration defines; 'auto' labels results when above
   * 1. A function when the adapter learns it after the run started (TestCafe's browsers): read
   * for each file.
   */
  projectCount?: number | (() => number | undefined);
  /** Shape why failed tests failed (failure-details.ts); false with `failureDetails: 'never'`. */
  failureDetails?: boolean;
  /** The API key's forms, redacted from why a test failed. */
  secrets?: SecretPattern | undefined;
  /** The framework's name (`vitest`, `node-test`, …): said in a failed result's message when the runner gave none. */
  framework?: string;
  /** Which tests' attached files go with their results (the `attachments` option); none when absent. */
  attachments?: AttachmentsMode;
}

/**
 * What one run's reports become: each file's tests named by the identity rules
 * (result-name.ts, docs/design/naming.md#result-identity), errors outside any file as `(run)` results,
 * every result through the mapper. It remembers, for this run only, what naming the next
 * report depends on: which files already have a failed result (a file gets at most one
 * `(file failed to run)`), and which run errors were already named (at most
 * MAX_RUN_ERROR_RESULTS; beyond, only counted). It sends nothing: RunReporter delivers what
 * it returns.
 */
export class RunResults {
  /** testSuites of this run that already hold a failed result. */
  private readonly failedSuites = new Set<string>();
  /** testCases of this run's `(run)` results, at most MAX_RUN_ERROR_RESULTS. */
  private readonly runErrorCases = new Set<string>();
  private moreRunErrors = 0;
  /** Whether a failed result of this run was handed on: a run the runner failed needs one that says so. */
  private failedAny = false;

  constructor(
    private readonly naming: RunNaming,
    private readonly map: ResultMapper,
  ) {}

  /** Whether testSuite starts with the project's label: `projectLabel`, and how many projects there are. */
  private get labelProjects(): boolean {
    const { projectLabel, projectCount } = this.naming;
    const count = (typeof projectCount === 'function' ? projectCount() : projectCount) ?? 1;
    return projectLabel === 'always' || (projectLabel === 'auto' && count > 1);
  }

  /**
   * One test file's tests, plus `(file failed to run)` when it failed outside them. A file
   * may be reported again later with no tests and `failedOutsideTests` (an error the
   * framework names it in at the end of the run): it then gets that one result, unless it
   * already has a failed one.
   */
  ofFile(report: FileReport): TestResult[] {
    const { file, project, tests } = report;
    const label = this.labelProjects ? project?.name : undefined;
    const path = withVariant(toTestSuite(file, this.naming.rootDir, project?.root), report.variant);
    const testSuite = withProjectLabel(path, label);
    const results: RawResult[] = tests.map(
      ({ titles, status, duration, failure, attempts, attachments }) => ({
        testSuite,
        testCase: toTestCase(titles),
        status,
        duration,
        failure,
        attempts,
        attachments,
      }),
    );
    const hasFailure = this.failedSuites.has(testSuite) || results.some((r) => r.status === 'failed');
    if (report.failedOutsideTests && !hasFailure) {
      results.push({
        testSuite,
        testCase: FILE_FAILURE_CASE,
        status: 'failed',
        duration: 0,
        failure: report.failure,
      });
    }
    if (report.failedOutsideTests || hasFailure) this.failedSuites.add(testSuite);
    return this.ofNamed(results, { file, project: project?.name });
  }

  /**
   * Errors the framework reports outside any test and file (an unhandled rejection, a
   * crashed worker): each distinct first line becomes one failed result of the run, at
   * most MAX_RUN_ERROR_RESULTS, so a run that failed never looks green in the service.
   */
  ofRunErrors(messages: readonly unknown[]): TestResult[] {
    const fresh: RawResult[] = [];
    for (const message of messages) {
      const result = runErrorResult(message);
      if (this.runErrorCases.has(result.testCase as string)) continue;
      if (this.runErrorCases.size >= MAX_RUN_ERROR_RESULTS) {
        this.moreRunErrors += 1;
        continue;
      }
      this.runErrorCases.add(result.testCase as string);
      fresh.push(result);
    }
    return this.ofNamed(fresh, {});
  }

  /** At the run's end: one result counting the run errors beyond the cap, if there were any. */
  ofUncountedRunErrors(): TestResult[] {
    if (this.moreRunErrors === 0) return [];
    // A count, not an error: what it says is how many, and that they are not results of their own.
    const more = this.moreRunErrors;
    const counted = runErrorResult(`${more} more errors`);
    const said = `${more} more ${more === 1 ? 'error' : 'errors'} outside any test and file: a run reports at most ${MAX_RUN_ERROR_RESULTS} of them as results of their own`;
    return this.ofNamed([{ ...counted, failure: { errors: [said] } }], {});
  }

  /**
   * At the run's end, what the runner's own verdict adds (runner-verdict.ts): each reason the
   * adapter gave for a run the runner failed, as a failed `(run)` result; a run it failed
   * where no result failed and no reason was given, one such result saying so. A run cut
   * short (`interrupted`) ends so, which says what happened.
   */
  ofVerdict(verdict: RunnerVerdict): TestResult[] {
    const why = verdict.why ?? [];
    if (why.length > 0) return this.ofRunErrors(why);
    if (!verdictFails(verdict) || verdict.interrupted || this.failedAny) return [];
    return this.ofRunErrors([failedWithoutReason(this.naming.framework ?? 'the runner')]);
  }

  /**
   * Results already named (an adapter's own, or core's `(run)` ones): cleaned and mapped,
   * then a failed one given why it failed, a passed one that needed retries how many attempts
   * it took (retriedPassDetails). The details are not mapResult's to see or change:
   * they follow the result it returns, and go only where the run accepts them (delivery).
   */
  ofNamed(results: readonly RawResult[], source: ResultSource): TestResult[] {
    const named: TestResult[] = [];
    for (const raw of results) {
      const result = this.map(raw, source);
      if (result === null) continue;
      if (raw.status === 'failed') this.failedAny = true;
      const details =
        this.naming.failureDetails === false
          ? undefined
          : raw.status === 'failed'
            ? this.withMessage(
                raw,
                toFailureDetails(raw.failure, {
                  file: source.file,
                  rootDir: this.naming.rootDir,
                  secrets: this.naming.secrets,
                }),
              )
            : raw.status === 'passed'
              ? retriedPassDetails(raw.attempts)
              : undefined;
      const sent = details ? { ...result, details } : result;
      const files = wantedFiles(raw, this.naming.attachments ?? 'none');
      named.push(files ? withFiles(sent, files) : sent);
    }
    return named;
  }

  /**
   * A failed result always says why: when the runner gave no error with a message (a file
   * Vitest never ran after its global setup threw, a runner that reports a failure and
   * nothing else), the message says what is known, that it failed and that the runner gave
   * no error. The last resort: each adapter hands over whatever its runner tells first.
   */
  private withMessage(raw: RawResult, details: FailureDetails | undefined): FailureDetails {
    if (details?.message) return details;
    const runner = this.naming.framework ?? 'the runner';
    const said =
      raw.testSuite === RUN_SUITE
        ? `an error outside any test and file; ${runner} gave no message for it`
        : raw.testCase === FILE_FAILURE_CASE
          ? `the file failed outside its tests; ${runner} reported no error for it`
          : `the test failed; ${runner} reported no error for it`;
    return { message: said, ...details };
  }
}
