// The file times `pnpm test:time --write-durations` measured on a green run of the whole suite,
// committed so that every clone (CI's fresh one included) starts its longest files first
// (scripts/longest-first-sequencer.ts).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DURATIONS_FILE = fileURLToPath(new URL('./file-durations.json', import.meta.url));

/** file (relative to the repo) → ms; empty when never written. */
export function committedDurations() {
  if (!fs.existsSync(DURATIONS_FILE)) return {};
  return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8'));
}

/** Writes `files` ({ file, ms }) longest first, to the tenth of a second. */
export function writeDurations(files) {
  const durations = Object.fromEntries(
    [...files].sort((a, b) => b.ms - a.ms).map((f) => [f.file, Math.round(f.ms / 100) * 100]),
  );
  fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(durations, null, 2)}\n`);
}
