import { type CanonicalStatus, type FileReport, fileNamedFirst, type RawTest } from '@testrun/core';
import type { JasmineDoneInfo, JasmineExpectation, JasmineResult } from './jasmine-types.js';

// What the reporter keeps while specs run, and how it becomes FileReports between them.
// Keeping is one array slot per event; everything here runs later, when a top-level block
// or the run has ended.

/** One event the reporter kept, as Jasmine sent it. */
export type JasmineEvent =
  | { name: 'suiteStarted' | 'specDone' | 'suiteDone'; result: JasmineResult }
  | { name: 'jasmineDone'; info: JasmineDoneInfo };

export interface MappedEvents {
  files: FileReport[];
  /** Errors that no spec file could be found for: each becomes a failed result of the run. */
  runErrors: string[];
}

/** A worker's number in front of an id in --parallel mode ("2-spec4"), which parentSuiteId lacks. */
const WORKER_PREFIX = /^\d+-/;

/** What Jasmine says of a spec a failed beforeAll kept from running (its error is on the suite). */
const NOT_RUN = /^Not run because a beforeAll function failed/;

/** How Jasmine's parallel runner names a spec file that failed to load, in the run's errors. */
const LOAD_ERROR = /^Error loading (.+?): /;

/**
 * Turns Jasmine's events into FileReports, a batch at a time. A spec file's specs may come in
 * several batches (Jasmine shuffles the top-level blocks of every file together, and in
 * --parallel mode the workers' events interleave), so each batch is the specs it holds, per
 * file; what names a spec (its suites) is kept across batches. A file that failed outside its
 * specs (a describe body or an afterAll that threw, a file that failed to load) is reported
 * at the end of the run, once its specs are all in: core then adds `(file failed to run)`
 * unless one of them failed, the same rule as for every adapter.
 */
export class JasmineMapping {
  private readonly suites = new Map<string, JasmineResult>();
  /** Every spec file seen, to find the one an error's stack names. */
  private readonly seenFiles = new Set<string>();
  /** Files that failed outside their specs, with the errors that failed them. */
  private readonly failedFiles = new Map<string, JasmineExpectation[]>();

  /** The batch's specs per file; with `end`, also the files that failed outside their specs. */
  take(events: readonly JasmineEvent[], end = false): MappedEvents {
    const tests = new Map<string, RawTest[]>();
    const runErrors: string[] = [];
    /** Specs a failed beforeAll kept from running, and the suites' errors: the hook's error is why they failed. */
    const notRun: { test: RawTest; spec: JasmineResult }[] = [];
    const suiteErrors = new Map<string, JasmineExpectation[]>();
    for (const event of events) {
      if (event.name === 'jasmineDone') {
        for (const error of event.info?.failedExpectations ?? [])
          this.failOutside(undefined, error, runErrors);
        continue;
      }
      const { result } = event;
      if (!result) continue;
      if (result.filename) this.seenFiles.add(result.filename);
      if (event.name === 'suiteStarted') {
        if (result.id) this.suites.set(result.id, result);
      } else if (event.name === 'specDone') {
        if (!result.filename) {
          // No file to name it by (jasmine-core before 5): it cannot be told apart from a file's.
          if (result.status === 'failed') runErrors.push(`${result.fullName ?? result.description}: failed`);
          continue;
        }
        let list = tests.get(result.filename);
        if (!list) {
          list = [];
          tests.set(result.filename, list);
        }
        const status = statusOf(result.status);
        const test: RawTest = {
          titles: this.titlesOf(result),
          status,
          duration: result.duration ?? 0,
          // Each failed expectation is one error: the first is the message, the rest are counted.
          failure: status === 'failed' ? { errors: result.failedExpectations ?? [] } : undefined,
        };
        list.push(test);
        if (NOT_RUN.test(result.failedExpectations?.[0]?.message ?? '')) notRun.push({ test, spec: result });
      } else if (result.status === 'failed') {
        if (result.id) suiteErrors.set(result.id, result.failedExpectations ?? []);
        for (const error of result.failedExpectations ?? [])
          this.failOutside(result.filename, error, runErrors);
      }
    }
    for (const { test, spec } of notRun) {
      const errors = this.nearestSuiteErrors(spec, suiteErrors);
      if (errors && errors.length > 0) test.failure = { errors };
    }
    const files: FileReport[] = [...tests].map(([file, list]) => ({ file, tests: list }));
    if (end) {
      for (const [file, errors] of this.failedFiles) {
        files.push({ file, tests: [], failedOutsideTests: true, failure: { errors } });
      }
      this.failedFiles.clear();
    }
    return { files, runErrors };
  }

  /** The suites' descriptions, outermost first, then the spec's. */
  private titlesOf(spec: JasmineResult): string[] {
    const titles = [spec.description ?? ''];
    const prefix = WORKER_PREFIX.exec(spec.id ?? '')?.[0] ?? '';
    let parentId = spec.parentSuiteId;
    // Bounded: a suite is never its own ancestor, but the ids come from another process.
    for (let depth = 0; parentId && depth < 1000; depth++) {
      const suite = this.suites.get(prefix + parentId) ?? this.suites.get(parentId);
      if (!suite) break;
      titles.unshift(suite.description ?? '');
      parentId = suite.parentSuiteId;
    }
    return titles;
  }

  /**
   * The errors of the nearest suite around `spec` that failed in this batch: Jasmine reports a
   * failed beforeAll on its suite, after the specs it kept from running, which say only that.
   * Its suite ends in the batch of its top-level block (in --parallel mode, unless another
   * worker's top-level spec ended in between: the spec then keeps Jasmine's own words).
   */
  private nearestSuiteErrors(
    spec: JasmineResult,
    failed: ReadonlyMap<string, JasmineExpectation[]>,
  ): JasmineExpectation[] | undefined {
    const prefix = WORKER_PREFIX.exec(spec.id ?? '')?.[0] ?? '';
    let parentId = spec.parentSuiteId;
    for (let depth = 0; parentId && depth < 1000; depth++) {
      const errors = failed.get(prefix + parentId) ?? failed.get(parentId);
      if (errors) return errors;
      const suite = this.suites.get(prefix + parentId) ?? this.suites.get(parentId);
      parentId = suite?.parentSuiteId;
    }
    return undefined;
  }

  /** An error outside any spec fails its file, as what failed it: the suite's, else the one the error names, else the run. */
  private failOutside(file: string | undefined, error: JasmineExpectation, runErrors: string[]): void {
    const owner = file ?? this.fileNamedIn(error);
    if (!owner) {
      runErrors.push(error?.message ?? String(error));
      return;
    }
    const errors = this.failedFiles.get(owner) ?? [];
    errors.push(error);
    this.failedFiles.set(owner, errors);
  }

  /** The spec file a load error names, else the seen spec file the error's stack names first. */
  private fileNamedIn(error: JasmineExpectation): string | undefined {
    const loaded = LOAD_ERROR.exec(error?.message ?? '')?.[1];
    if (error?.globalErrorType === 'load' && loaded) return loaded;
    return fileNamedFirst(`${error?.stack ?? ''}\n${error?.message ?? ''}`, this.seenFiles);
  }
}

/** Spec statuses that are `skipped`: see statusOf. */
const SKIPPED = new Set(['pending', 'excluded', 'notApplicable']);

/**
 * Jasmine's spec statuses: `pending` (xit, xdescribe, pending(), a spec without a function),
 * `excluded` (left out by fit/fdescribe elsewhere, or by --filter) and, from Jasmine 7,
 * `notApplicable` (the spec called notApplicable(), a skip decided at run time) are skipped,
 * as every adapter reports a skipped or filtered test. Anything else Jasmine might add is
 * failed: a run is never made to look greener than the runner said.
 */
export function statusOf(status: string | undefined): CanonicalStatus {
  if (status === 'passed') return 'passed';
  if (status !== undefined && SKIPPED.has(status)) return 'skipped';
  return 'failed';
}
