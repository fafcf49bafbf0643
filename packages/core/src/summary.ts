import type { RunSummary } from './types.js';

/** The one line a user sees at the end of a run. */
export function formatSummary(summary: RunSummary, notes: readonly string[] = [], pageUrl?: string): string {
  const parts = [
    `${count(summary.delivered)} ${summary.delivered === 1 ? 'result' : 'results'} → run ${summary.runId ?? '(not created)'}`,
    `(${count(summary.requests)} ${summary.requests === 1 ? 'request' : 'requests'}, ${(summary.durationMs / 1000).toFixed(2)} s)`,
  ];
  if (pageUrl && summary.runId) parts.push(pageUrl);
  let line = parts.join(' ');
  if (summary.spooled > 0) {
    line += `; ${count(summary.spooled)} spooled to ${summary.spoolFile}: send them with \`npx testrun replay\``;
  }
  if (summary.failed > 0) line += `; ${count(summary.failed)} lost (the spool could not be written)`;
  for (const note of notes) line += `; ${note}`;
  return line;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
