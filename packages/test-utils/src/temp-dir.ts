import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onExit } from 'signal-exit';

// Every `pnpm test` made ~800 folders under the OS temp dir (a spool per fixture run, a JSON
// report, a checkout) and left them: a developer's /tmp held tens of thousands.
const made: string[] = [];

/** A fresh folder under the OS temp dir named `<prefix>XXXXXX`, removed when this process exits. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // signal-exit: Vitest ends some of its workers with a signal, which runs no 'exit' listener.
  if (made.length === 0) onExit(removeMade);
  made.push(dir);
  return dir;
}

function removeMade(): void {
  for (const dir of made.splice(0)) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // A child still writing into it: the OS's temp cleaning takes it from here.
    }
  }
}
