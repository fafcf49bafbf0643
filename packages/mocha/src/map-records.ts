import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type CanonicalStatus,
  type FileReport,
  fileNamedFirst,
  type RawFailure,
  type RawTest,
  startDir,
} from '@testrun/core';
import type { MochaRunnable } from './mocha-types.js';

// What the reporter keeps while tests run, and how it becomes FileReports at a file's end.
// Keeping is one array slot per event; everything here runs later, between files.

/** One thing that happened: a test ended, a hook failed (with the tests it prevented), or an error fell outside any test. */
export type MochaRecord =
  /** `error`: what a failed test threw. */
  | { kind: 'ended'; test: MochaRunnable; outcome: 'passed' | 'failed' | 'pending'; error?: unknown }
  | { kind: 'hook'; hook: MochaRunnable; error: unknown; prevented: readonly MochaRunnable[] }
  | { kind: 'outside'; error: unknown };

export interface MappedRecords {
  files: FileReport[];
  /** Errors that no test file could be found for: each becomes a failed result of the run. */
  runErrors: string[];
}

/**
 * The records' tests, per file; a test reported twice (a passing test whose afterEach then
 * failed) is one result with its last outcome. A hook that prevented no test (`after all`)
 * and an error outside any test fail their file, with that error as what failed it: the
 * hook's own file, else the spec file the error's stack names (a root hook in serial mode
 * and a file that failed to load in parallel mode have no file of their own), else the run.
 */
export function mapRecords(records: readonly MochaRecord[], specFiles: readonly string[]): MappedRecords {
  const files = new Map<
    string,
    { tests: Map<unknown, RawTest>; failedOutsideTests: boolean; errors: unknown[] }
  >();
  const fileEntry = (file: string) => {
    let entry = files.get(file);
    if (!entry) {
      entry = { tests: new Map(), failedOutsideTests: false, errors: [] };
      files.set(file, entry);
    }
    return entry;
  };
  const runErrors: string[] = [];
  const failOutside = (file: string | undefined, error: unknown) => {
    const owner = file ?? specFileIn(error, specFiles);
    if (!owner) {
      runErrors.push(messageOf(error));
      return;
    }
    // What failed it, for its `(file failed to run)`: the hook's error, the load error.
    const entry = fileEntry(owner);
    entry.failedOutsideTests = true;
    entry.errors.push(error);
  };

  for (const record of records) {
    if (record.kind === 'ended') {
      const { test, outcome } = record;
      if (!test.file) continue;
      const failure =
        outcome === 'failed' ? { errors: [record.error], attempts: attemptOf(test) } : undefined;
      const raw = rawTest(test, statusOf(outcome), failure);
      // Under `retries`: a test that passed on a later attempt (passed on a retry).
      const attempts = outcome === 'passed' ? attemptOf(test) : undefined;
      fileEntry(test.file).tests.set(
        keyOf(test),
        attempts !== undefined && attempts > 1 ? { ...raw, attempts } : raw,
      );
    } else if (record.kind === 'hook') {
      for (const test of record.prevented) {
        if (!test.file) continue;
        const status = test.isPending?.() ? 'skipped' : 'failed';
        // Why it did not run: the hook's error.
        const failure = status === 'failed' ? { errors: [record.error] } : undefined;
        fileEntry(test.file).tests.set(keyOf(test), rawTest(test, status, failure));
      }
      if (record.prevented.length === 0) failOutside(record.hook.file, record.error);
    } else {
      failOutside(undefined, record.error);
    }
  }
  return {
    files: [...files].map(([file, { tests, failedOutsideTests, errors }]) => ({
      file,
      tests: [...tests.values()],
      failedOutsideTests,
      ...(errors.length > 0 ? { failure: { errors } } : {}),
    })),
    runErrors,
  };
}

/**
 * Mocha's pending tests are skipped: `it.skip`, `describe.skip`, `this.skip()` and a test
 * without a function (Mocha's "todo") all look alike to a reporter (it.skip drops the function).
 */
function statusOf(outcome: 'passed' | 'failed' | 'pending'): CanonicalStatus {
  return outcome === 'pending' ? 'skipped' : outcome;
}

function rawTest(test: MochaRunnable, status: CanonicalStatus, failure?: RawFailure): RawTest {
  const raw: RawTest = { titles: test.titlePath?.() ?? [test.title], status, duration: test.duration ?? 0 };
  return failure ? { ...raw, failure } : raw;
}

/** Which attempt this was, under `retries`: Mocha counts retries from 0. */
function attemptOf(test: MochaRunnable): number | undefined {
  try {
    const retry = test.currentRetry?.();
    return typeof retry === 'number' ? retry + 1 : undefined;
  } catch {
    return undefined;
  }
}

/** A test's identity across events: Mocha's id (a copy from a worker keeps it as `__mocha_id__`), else the object. */
function keyOf(test: MochaRunnable): unknown {
  return test.id ?? test.__mocha_id__ ?? test;
}

/**
 * The spec file an error's stack (or message) names first: as a path, a file: URL, or a path
 * from the working directory (Mocha's stack filter cuts the working directory off).
 */
function specFileIn(error: unknown, specFiles: readonly string[]): string | undefined {
  const text = `${(error as { stack?: unknown })?.stack ?? ''}\n${messageOf(error)}`;
  return fileNamedFirst(text, specFiles, (file) => [
    file,
    pathToFileURL(file).href,
    path.relative(startDir, file),
  ]);
}

function messageOf(error: unknown): string {
  if (error instanceof Error || (error && typeof error === 'object' && 'message' in error)) {
    return String((error as { message: unknown }).message);
  }
  return String(error);
}
