import path from 'node:path';

/**
 * The directory the test command was started in, taken when core loads
 * (docs/design/what-tests-do-to-the-process.md#the-environment-and-the-working-directory). A test
 * may `process.chdir()` into a temporary folder and remove it: `process.cwd()` then moves, or
 * throws (ENOENT), and the spool and the names of test files would move with it. Core and the
 * adapters resolve every relative path from here.
 */
export const startDir: string = currentDir();

function currentDir(): string {
  try {
    return process.cwd();
  } catch {
    // Loaded after a test removed the working directory: the shell's record of it, if any.
    return process.env.PWD && path.isAbsolute(process.env.PWD)
      ? process.env.PWD
      : path.parse(process.execPath).root;
  }
}
