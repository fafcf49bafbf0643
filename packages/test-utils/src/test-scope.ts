import { onTestFinished, TestRunner } from 'vitest';

// What a helper starts in a test (a server, a process, a proxy) ends with the test. Vitest's
// onTestFinished names the test that started last, which under `describe.concurrent` may be
// another one: a server closed when a sibling finished ("the database is closed"). In a
// concurrent test the cleanup waits for the file's end instead (the setup file
// test-scope-setup.ts runs it); outside any test (a beforeAll) the suite ends it itself.

const atFileEnd: (() => unknown)[] = [];

/** Whether the running test may run beside another: it, or a describe around it, is concurrent. */
function besideOthers(): boolean {
  const test = TestRunner.getCurrentTest();
  for (let task: { concurrent?: boolean; suite?: unknown } | undefined = test; task; ) {
    if (task.concurrent) return true;
    task = task.suite as typeof task;
  }
  return false;
}

/** Runs `cleanup` when the running test ends; when the file ends if it may run beside others. */
export function whenTheTestEnds(cleanup: () => unknown): void {
  if (besideOthers()) {
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
