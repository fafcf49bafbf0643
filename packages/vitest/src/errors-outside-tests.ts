import type { FrameworkProject } from '@testrun/core';

/** A test file scheduled in one project: a TestSpecification reduced to what identifies it. */
export interface ScheduledFile {
  file: string;
  project: FrameworkProject;
}

/** What Vitest reports for an error outside any test (a SerializedError, loosely). */
export interface OutsideError {
  name?: unknown;
  message?: unknown;
  /** Set by Vitest for an error caught while a worker ran this file. */
  VITEST_TEST_PATH?: unknown;
}

/** How Vitest says a run ended (TestRunEndReason); Vitest 3.2 may not say. */
export type RunEndReason = 'passed' | 'failed' | 'interrupted' | undefined;

/** A file that failed outside its tests, with what failed it. */
export interface FailedFile extends ScheduledFile {
  /**
   * The errors pinned to it; for a file that never finished and had none, the errors no file
   * could be pinned to (a crashed worker's), which likely stopped it. Empty: Vitest gave none
   * (a global setup that threw ends the run with no error in a reporter's hands).
   */
  errors: OutsideError[];
}

export interface ErrorsOutsideTests {
  /** Files that failed to run, or that an error was caught in: each gets `(file failed to run)`, with its errors. */
  failedFiles: FailedFile[];
  /** Messages of errors that name no file (or a file run in several projects): each becomes a run error. */
  runErrors: string[];
}

/**
 * Where Vitest's unhandled errors belong. An error names a file through VITEST_TEST_PATH
 * (caught while a worker ran it) or in its message (Vitest 4 and 5: "Failed to start forks
 * worker for test files …"); it then belongs to that file in the project the file was
 * scheduled in. A file scheduled in several projects is pinned to the projects where it
 * never finished; when it finished in all of them, the error cannot be pinned and is a run
 * error. Files that never finished in a run that failed (Vitest 3.2 leaves them pending when
 * their environment fails to start; a global setup that throws ends the run before any file
 * and with no error in hand) failed to run; not so when the run was interrupted (Ctrl-C,
 * `bail`), which leaves files out on purpose. Each failed file carries what failed it: the
 * errors pinned to it, else (it never finished) the errors pinned to no file, a crashed
 * worker's, which are run errors as well.
 */
export function errorsOutsideTests(
  run: {
    /** Every file the run knows of, to pin errors to (with --shard, other shards' files too). */
    scheduled: readonly ScheduledFile[];
    /** The files this process was to run (its shard's); unknown: no file is failed for not finishing. */
    mine: readonly ScheduledFile[] | undefined;
    finished: (file: ScheduledFile) => boolean;
    reason: RunEndReason;
  },
  errors: readonly OutsideError[],
): ErrorsOutsideTests {
  const { scheduled, mine, finished, reason } = run;
  const failed = new Map<string, FailedFile>();
  const fail = (file: ScheduledFile, errors: readonly OutsideError[]) => {
    const entry = failed.get(keyOf(file)) ?? { ...file, errors: [] };
    entry.errors.push(...errors);
    failed.set(keyOf(file), entry);
  };
  const unpinned: OutsideError[] = [];
  const byFile = new Map<string, ScheduledFile[]>();
  for (const file of scheduled) byFile.set(file.file, [...(byFile.get(file.file) ?? []), file]);

  for (const error of errors) {
    let pinned = false;
    for (const path of namedFiles(error, byFile)) {
      const candidates = byFile.get(path) ?? [];
      const unfinished = candidates.filter((file) => !finished(file));
      const owners = candidates.length === 1 ? candidates : unfinished;
      for (const owner of owners) fail(owner, [error]);
      pinned ||= owners.length > 0;
    }
    if (!pinned) unpinned.push(error);
  }
  if ((errors.length > 0 || reason === 'failed') && reason !== 'interrupted') {
    for (const file of mine ?? []) {
      if (!finished(file) && !failed.has(keyOf(file))) fail(file, unpinned);
    }
  }
  return { failedFiles: [...failed.values()], runErrors: unpinned.map(messageOf) };
}

function namedFiles(error: OutsideError, byFile: ReadonlyMap<string, unknown>): string[] {
  if (typeof error.VITEST_TEST_PATH === 'string') return [error.VITEST_TEST_PATH];
  const message = typeof error.message === 'string' ? error.message : '';
  if (message === '') return [];
  return [...byFile.keys()].filter((file) => mentions(message, file));
}

/** Whether `message` names `file` as a whole path, not as the start of a longer one (`a.test.js` in `a.test.jsx`). */
function mentions(message: string, file: string): boolean {
  for (let at = message.indexOf(file); at !== -1; at = message.indexOf(file, at + 1)) {
    const after = message.slice(at + file.length, at + file.length + 2);
    if (!/^(?:[\w/\\-]|\.\w)/.test(after)) return true;
  }
  return false;
}

function messageOf(error: OutsideError): string {
  const message = typeof error.message === 'string' ? error.message : String(error.message ?? '');
  const name = typeof error.name === 'string' ? error.name : '';
  return name && !message.startsWith(name) ? `${name}: ${message}` : message;
}

function keyOf({ file, project }: ScheduledFile): string {
  return `${project.name ?? ''}\0${file}`;
}
