import fs from 'node:fs';
import path from 'node:path';

/**
 * Appends `markdown` to the summary file, as GitHub asks of `$GITHUB_STEP_SUMMARY` (other
 * steps write theirs there too), creating it and its folder where they do not exist.
 */
export function appendSummary(file: string, markdown: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const existing = fs.existsSync(file) ? fs.statSync(file).size : 0;
  fs.appendFileSync(file, existing > 0 ? `\n${markdown}` : markdown);
}
