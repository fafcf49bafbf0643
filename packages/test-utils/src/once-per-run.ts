import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

// Work several test files need and one `vitest run` does once (packing the packages, an npm
// install of the consumer project): the first file to ask does it, the others wait for its
// answer. Files run in processes of their own, so the answer is a file, and the first to make
// a lock folder (mkdir is atomic) does the work. The folder is the run's, made and removed by
// once-per-run-setup.ts (a globalSetup of the projects that use it).

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of this `vitest run`'s once-done work. */
    oncePerRunDir: string;
  }
}

/** A folder for `name`'s work in this run's folder (made on first use). */
export function oncePerRunFolder(name: string): string {
  const folder = path.join(inject('oncePerRunDir'), name);
  fs.mkdirSync(folder, { recursive: true });
  return folder;
}

/**
 * `work()`'s answer (JSON), done once in this `vitest run`: by the first file that asks, the
 * others waiting up to `timeoutMs`. A failure is every asker's, with the first one's error.
 */
export async function oncePerRun<T>(name: string, work: () => Promise<T>, timeoutMs: number): Promise<T> {
  const root = inject('oncePerRunDir');
  const answer = path.join(root, `${name}.json`);
  const lock = path.join(root, `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(answer)) {
      const done = JSON.parse(fs.readFileSync(answer, 'utf8')) as { value: T } | { error: string };
      if ('error' in done) throw new Error(`${name}, done by another test file, failed: ${done.error}`);
      return done.value;
    }
    try {
      fs.mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline)
        throw new Error(`${name}: another test file did not finish it in ${timeoutMs} ms`);
      await sleep(250);
      continue;
    }
    let done: { value: T } | { error: string };
    try {
      done = { value: await work() };
    } catch (error) {
      done = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
    // Written whole, then renamed: a waiting file never reads half an answer.
    fs.writeFileSync(`${answer}.partial`, JSON.stringify(done));
    fs.renameSync(`${answer}.partial`, answer);
    if ('error' in done) throw new Error(`${name} failed: ${done.error}`);
    return done.value;
  }
}
