import os from 'node:os';

/**
 * At most `limit` of the given works at once, the rest waiting their turn in order: for a file
 * whose tests run side by side (describe.concurrent), each starting framework runs, so that
 * they share the cores instead of starting dozens of processes at once (Vitest's own limit,
 * maxConcurrency, applies to each nested describe apart, and multiplies). Two a core by default:
 * a framework run waits about as long as it works.
 */
export function runLimiter(limit = 2 * os.availableParallelism()): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await work();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
