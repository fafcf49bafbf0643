import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** How messages name a report read from standard input (`-`), and the testSuite of its TAP results without `--suite`. */
export const STANDARD_INPUT_NAME = '(stdin)';

/** A report piped in, kept in a file while the upload reads it. */
export interface SavedInput {
  file: string;
  /** Removes the file. */
  remove(): void;
}

/**
 * Copies standard input to a private temporary file (0600): an upload reads each report
 * twice (once to check it is whole, once to send it), and a pipe can be read once. The
 * copy keeps memory flat however long the stream; it is removed when the upload ends.
 */
export async function saveStandardInput(input: NodeJS.ReadableStream = process.stdin): Promise<SavedInput> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testrun-stdin-'));
  const file = path.join(dir, 'report');
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    await pipeline(input, fs.createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    remove();
    throw error;
  }
  return { file, remove };
}

/** Reads standard input to its end, keeping nothing: the writer piped in finishes as it would alone. */
export async function drainStandardInput(input: NodeJS.ReadStream = process.stdin): Promise<void> {
  if (input.readableEnded || input.destroyed) return;
  try {
    for await (const _chunk of input) {
      // Dropped.
    }
  } catch {
    // A pipe that broke on the writer's side: nothing left to read.
  }
}
