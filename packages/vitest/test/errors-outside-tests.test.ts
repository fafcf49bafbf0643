import { describe, expect, it } from 'vitest';
import {
  errorsOutsideTests,
  type OutsideError,
  type RunEndReason,
  type ScheduledFile,
} from '../src/errors-outside-tests.js';

// Where an unhandled error of Vitest belongs. The real errors these stand for are in
// e2e/errors-outside-tests.test.ts; here, the choices with several projects.

const a = (name?: string): ScheduledFile => ({ file: '/repo/src/a.test.ts', project: { name } });
const b = (name?: string): ScheduledFile => ({ file: '/repo/src/b.test.ts', project: { name } });
const everyFileRan = () => true;

/** An unsharded run of `scheduled`, unless `mine` says which of them this process ran (null: unknown). */
function outsideTests(
  scheduled: ScheduledFile[],
  finished: (file: ScheduledFile) => boolean,
  errors: OutsideError[],
  reason: RunEndReason,
  mine: ScheduledFile[] | null = scheduled,
) {
  return errorsOutsideTests({ scheduled, mine: mine ?? undefined, finished, reason }, errors);
}

describe('errorsOutsideTests', () => {
  it('pins an error caught while a file ran to that file, as what failed it', () => {
    const late = { name: 'Error', message: 'late', VITEST_TEST_PATH: '/repo/src/a.test.ts' };
    const outcome = outsideTests([a(), b()], everyFileRan, [late], 'failed');
    expect(outcome).toEqual({ failedFiles: [{ ...a(), errors: [late] }], runErrors: [] });
  });

  it('pins a worker that failed to start to each file its message names', () => {
    const message =
      '[vitest-pool]: Failed to start forks worker for test files /repo/src/a.test.ts, /repo/src/b.test.ts.';
    const ran = (file: ScheduledFile) => file.file.endsWith('c.test.ts');
    expect(outsideTests([a(), b()], ran, [{ message }], 'failed').failedFiles).toEqual([
      { ...a(), errors: [{ message }] },
      { ...b(), errors: [{ message }] },
    ]);
  });

  it('does not take a longer path for the one it starts with', () => {
    const message = 'Failed to start forks worker for test files /repo/src/a.test.tsx.';
    expect(outsideTests([a()], everyFileRan, [{ message }], 'failed')).toEqual({
      failedFiles: [],
      runErrors: [message],
    });
  });

  it('pins an error in a file run by two projects to the project where it never finished', () => {
    const edgeNeverRan = (file: ScheduledFile) => file.project.name !== 'edge';
    const message = 'Failed to start forks worker for test files /repo/src/a.test.ts.';
    expect(outsideTests([a('node'), a('edge')], edgeNeverRan, [{ message }], 'failed')).toEqual({
      failedFiles: [{ ...a('edge'), errors: [{ message }] }],
      runErrors: [],
    });
  });

  it('makes an error in a file that finished in two projects a run error: it cannot tell which', () => {
    const error = { name: 'Error', message: 'late', VITEST_TEST_PATH: '/repo/src/a.test.ts' };
    expect(outsideTests([a('node'), a('edge')], everyFileRan, [error], 'failed')).toEqual({
      failedFiles: [],
      runErrors: ['Error: late'],
    });
  });

  it('makes an error that names no file a run error, named by its type', () => {
    const outcome = outsideTests(
      [a()],
      everyFileRan,
      [{ name: 'TypeError', message: 'x is not a function' }],
      'failed',
    );
    expect(outcome.runErrors).toEqual(['TypeError: x is not a function']);
  });

  it('fails the files that never finished in a failed run, and not in an interrupted one', () => {
    const nothingRan = () => false;
    // A global setup that threw: Vitest hands the reporter no error.
    expect(outsideTests([a(), b()], nothingRan, [], 'failed').failedFiles).toEqual([
      { ...a(), errors: [] },
      { ...b(), errors: [] },
    ]);
    expect(outsideTests([a(), b()], nothingRan, [{ message: 'boom' }], 'interrupted').failedFiles).toEqual(
      [],
    );
    expect(outsideTests([a(), b()], nothingRan, [], 'passed').failedFiles).toEqual([]);
  });

  it('gives a file that never finished the errors no file could be pinned to: a crashed worker stopped it', () => {
    const crash = { name: 'Error', message: '[vitest-pool]: Worker forks emitted error.' };
    const onlyA = (file: ScheduledFile) => file.file === a().file;
    expect(outsideTests([a(), b()], onlyA, [crash], 'passed')).toEqual({
      failedFiles: [{ ...b(), errors: [crash] }],
      runErrors: ['Error: [vitest-pool]: Worker forks emitted error.'],
    });
  });

  it('fails only the files of its own shard that never finished, and none when it cannot tell', () => {
    const nothingRan = () => false;
    expect(outsideTests([a(), b()], nothingRan, [], 'failed', [b()]).failedFiles).toEqual([
      { ...b(), errors: [] },
    ]);
    expect(outsideTests([a(), b()], nothingRan, [], 'failed', null).failedFiles).toEqual([]);
  });
});
