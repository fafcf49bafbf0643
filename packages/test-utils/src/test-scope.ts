import { onTestFinished } from 'vitest';
import { getCurrentTest } from 'vitest/suite';

// What a helper starts in a test (a server, a process, a proxy) ends with the test. Vitest's
// onTestFinished names the test that started last, which under `describe.concurrent` may be
// another one: a server closed when a sibling finished ("the database is closed"). In a
// concurrent test the cleanup waits for the file's end instead (the setup file
// test-scope-setup.ts runs it); outside any test (a beforeAll) the suite ends it itself.

const atFileEnd: (() => unknown)[] = [];

/** Runs `cleanup` when the running test ends: at once if it is a concurrent one's, when the file ends. */
export function whenTheTestEnds(cleanup: () => unknown): void {
  if (getCurrentTest()?.concurrent) {
    atFileEnd.push(cleanup);
    return;
  }
  try {
    onTestFinished(async () => {
      await cleanup();
    });
  } catch {
    // Not in a test: a beforeAll, whose suite ends what it started.
  }
}

/** The cleanups concurrent tests left for the file's end (the setup file's afterAll). */
export async function runFileEndCleanups(): Promise<void> {
  const cleanups = atFileEnd.splice(0);
  await Promise.all(cleanups.map(async (cleanup) => cleanup()));
}
