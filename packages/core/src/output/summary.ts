import path from 'node:path';
import { OPTION_SPECS } from '../options/option-specs.js';
import { formatSize } from '../options/size-text.js';
import { startDir } from '../start-dir.js';
import type { DeliverySummary } from '../types.js';

/** The one line a user sees at the end of a run. */
export function formatSummary(summary: DeliverySummary, notes: readonly string[] = []): string {
  const parts = [
    `${countOf(summary.delivered, 'result')} → run ${summary.runId ?? '(not created)'}`,
    `(${countOf(summary.requests, 'request')}, ${(summary.durationMs / 1000).toFixed(2)} s)`,
  ];
  if (summary.pageUrl && summary.runId) parts.push(summary.pageUrl);
  let line = parts.join(' ');
  if (summary.spooled > 0 && summary.spoolFile) {
    line += `; ${formatCount(summary.spooled)} spooled to ${summary.spoolFile}: send them with \`${replayCommand(summary.spoolFile)}\``;
  }
  const { runEnd } = summary;
  if (runEnd?.state === 'sent') line += `; run marked ${runEnd.status}`;
  if (runEnd?.state === 'spooled' && summary.spoolFile) {
    line +=
      summary.spooled > 0
        ? `; the run's end (${runEnd.status}) waits in the spool with them`
        : `; the run's end (${runEnd.status}) spooled to ${summary.spoolFile}: send it with \`${replayCommand(summary.spoolFile)}\``;
  }
  if (summary.failed > 0) line += `; ${formatCount(summary.failed)} lost (the spool could not be written)`;
  if (summary.refused > 0) line += `; ${formatCount(summary.refused)} refused by the service (see above)`;
  line += filesPart(summary);
  for (const note of notes) line += `; ${note}`;
  return line;
}

/** What became of the run's attached files, when it had any. */
function filesPart({ files, spooled, spoolFile }: DeliverySummary): string {
  if (!files) return '';
  let part = '';
  if (files.sent > 0) part += `; ${countOf(files.sent, 'file')} uploaded (${formatSize(files.bytes)})`;
  if (files.spooled > 0 && spoolFile) {
    part +=
      spooled > 0
        ? `; ${countOf(files.spooled, 'file')} spooled with them`
        : `; ${countOf(files.spooled, 'file')} spooled to ${spoolFile}: send them with \`${replayCommand(spoolFile)}\``;
  }
  if (files.skipped > 0) part += `; ${countOf(files.skipped, 'file')} not uploaded (said above)`;
  return part;
}

/** `testrun replay` looks in ./.testrun/spool, where reporters spool by default; a spool elsewhere (spoolDir, TESTRUN_SPOOL_DIR) needs --dir. */
export function replayCommand(spoolFile: string): string {
  const dir = path.dirname(spoolFile);
  if (dir === path.resolve(startDir, OPTION_SPECS.spoolDir.default)) return 'npx @testrun/cli replay';
  const relative = path.relative(startDir, dir);
  return `npx @testrun/cli replay --dir ${relative.startsWith('..') || relative === '' ? dir : relative}`;
}

/**
 * `1,234`: thousands separated as `toLocaleString('en-US')` does, without it: its first call loads
 * ICU's locale data, CPU spent at the end of every run
 * (bench/README.md#7-fixed-cost-per-run-fixed-costmjs-and-the-http-stack-alone-transport-childmjs).
 */
export function formatCount(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A duration as a person reads it: `850 ms`, `2.98 s`, `75 s`. Timers and deadlines are
 * fractional milliseconds (`2978.8710640000004`), never printed as they are.
 */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return `${ms} ms`;
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return seconds < 10 ? `${seconds.toFixed(2)} s` : `${Math.round(seconds)} s`;
}

/** `1 result`, `1,234 results`: a count with its noun in the right number. */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
