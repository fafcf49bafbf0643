import { markdownText, markdownUrl } from './markdown-text.js';
import { LISTED_TESTS, type ListedTest, type StatusWords, type TallyData } from './tally.js';
import { testAnchor } from './test-anchor.js';

// The CI summary as Markdown (GitHub's job summary, a GitLab or Jenkins page, a Buildkite
// annotation): the run's state and page, counts by status with flaky apart, the failed tests with
// why, the flaky ones, the five slowest. Every text from the run goes through markdownText;
// whatever the run, the summary is a few dozen kilobytes at most
// (docs/design/ci-summary.md#its-size): 25 rows of bounded cells.

/** How many code points of a test's name, its file and a message a row shows. */
export const SHOWN_NAME = 200;
export const SHOWN_MESSAGE = 300;
const SHOWN_LABEL = 100;

/** The run's state, as it ended or as the service shows it now. */
export type SummaryState =
  | 'completed'
  | 'failed'
  | 'interrupted'
  | 'running'
  | 'abandoned'
  | 'not created'
  /** The service offers no reads, and this process did not end the run. */
  | 'unknown';

export interface SummaryInput {
  project: string;
  framework: string;
  /** Undefined when the run was never created (the service could not be reached). */
  runId: string | undefined;
  /** The run's page, when the service gave one. */
  pageUrl: string | undefined;
  state: SummaryState;
  tally: TallyData;
  durationMs: number | undefined;
  /**
   * What the counts cover: the whole run (the service's reads, or a reporter that sent every
   * result itself), or only what was sent from here, and why.
   */
  covers: { whole: true } | { whole: false; why: string };
  statusWords: StatusWords;
  /** Lines said under the counts (results waiting in the spool). */
  notes?: readonly string[];
}

const STATE_MARKS: Record<SummaryState, string> = {
  completed: '✅',
  failed: '❌',
  interrupted: '⛔',
  running: '⏳',
  abandoned: '⚠️',
  'not created': '⚠️',
  unknown: '❔',
};

export function renderSummary(input: SummaryInput): string {
  const { tally } = input;
  const page = input.runId === undefined ? undefined : markdownUrl(input.pageUrl);
  const label = (text: string) => markdownText(text, SHOWN_LABEL);
  const lines: string[] = [
    `### ${STATE_MARKS[input.state]} ${label(input.project)} · ${label(input.framework)}: ${stateWords(input)}`,
    '',
    countsLine(input, page),
  ];
  for (const note of input.notes ?? []) lines.push('', markdownText(note, 500));

  if (tally.failed.length > 0) {
    lines.push('', '#### Failed tests', '', '| Test | File | Why it failed |', '| :-- | :-- | :-- |');
    const seen = new Map<string, number>();
    for (const test of tally.failed) {
      const key = `${test.testSuite}\n${test.testCase}`;
      const occurrence = (seen.get(key) ?? 0) + 1;
      seen.set(key, occurrence);
      const name = markdownText(test.testCase, SHOWN_NAME);
      const anchor = testAnchor(test.testSuite, test.testCase, occurrence);
      const linked = page ? `[${name}](${page}#${anchor})` : name;
      const marked = test.quarantined ? `${linked} (quarantined)` : linked;
      lines.push(`| ${marked} | ${file(test)} | ${markdownText(test.message ?? '', SHOWN_MESSAGE)} |`);
    }
    const more = tally.failedCount - tally.failed.length;
    if (more > 0) {
      const all = page ? `: [all of them on the run's page](${page}#failed)` : '';
      lines.push('', `and ${formatCount(more)} more failed ${more === 1 ? 'test' : 'tests'}${all}`);
    }
  }

  if (tally.flaky.length > 0) {
    lines.push('', '#### Flaky: passed on a retry', '', '| Test | File | Attempts |', '| :-- | :-- | --: |');
    for (const test of tally.flaky) {
      lines.push(`| ${markdownText(test.testCase, SHOWN_NAME)} | ${file(test)} | ${test.attempts ?? ''} |`);
    }
    const more = tally.flakyCount - tally.flaky.length;
    if (more > 0) lines.push('', `and ${formatCount(more)} more flaky ${more === 1 ? 'test' : 'tests'}`);
  }

  if (tally.slowest.length > 0) {
    const count = tally.slowest.length;
    lines.push(
      '',
      `<details><summary>The ${count === 1 ? 'slowest test' : `${count} slowest tests`}</summary>`,
      '',
      '| Test | File | Duration |',
      '| :-- | :-- | --: |',
    );
    for (const test of tally.slowest) {
      lines.push(
        `| ${markdownText(test.testCase, SHOWN_NAME)} | ${file(test)} | ${formatDuration(test.duration)} |`,
      );
    }
    lines.push('', '</details>');
  }

  lines.push('', `<sub>${footer(input)}</sub>`, '');
  return lines.join('\n');
}

/** `**3 failed** · 1,234 passed (2 flaky) · 12 skipped · 1,249 tests · 2 min 3 s · run page` */
function countsLine(input: SummaryInput, page: string | undefined): string {
  const { tally, statusWords } = input;
  const parts: string[] = [];
  const order = [statusWords.failed, statusWords.passed, statusWords.skipped, statusWords.todo];
  const statuses = [
    ...new Set([
      ...order.filter((status) => Object.hasOwn(tally.counts, status)),
      ...Object.keys(tally.counts).sort(),
    ]),
  ];
  for (const status of statuses) {
    const count = tally.counts[status] ?? 0;
    if (count === 0) continue;
    const text = `${formatCount(count)} ${markdownText(status, 40)}`;
    const quarantined = tally.quarantinedCount ?? 0;
    if (status === statusWords.failed && quarantined > 0) {
      parts.push(`**${text}** (${formatCount(quarantined)} quarantined)`);
    } else if (status === statusWords.failed) parts.push(`**${text}**`);
    else if (status === statusWords.passed && tally.flakyCount > 0) {
      parts.push(`${text} (${formatCount(tally.flakyCount)} flaky)`);
    } else parts.push(text);
  }
  if (tally.otherStatuses > 0) parts.push(`${formatCount(tally.otherStatuses)} of other statuses`);
  parts.push(`${formatCount(tally.total)} ${tally.total === 1 ? 'test' : 'tests'}`);
  if (input.durationMs !== undefined) parts.push(formatDuration(input.durationMs));
  if (page) parts.push(`[the run's page](${page})`);
  return parts.join(' · ');
}

/**
 * The state as the heading says it: a run completed though tests failed passed because every
 * failure was a quarantined test's, `completed — passed, 2 quarantined failures`.
 */
function stateWords(input: SummaryInput): string {
  const quarantined = input.tally.quarantinedCount ?? 0;
  if (input.state !== 'completed' || quarantined === 0) return input.state;
  return `passed — ${formatCount(quarantined)} quarantined ${quarantined === 1 ? 'failure' : 'failures'}`;
}

function footer(input: SummaryInput): string {
  const run =
    input.runId === undefined ? 'The run was not created' : `Run ${markdownText(input.runId, SHOWN_LABEL)}`;
  const covers = input.covers.whole
    ? 'these counts are the whole run'
    : `these counts are what was sent from here: ${markdownText(input.covers.why, 300)}`;
  return `testrun · ${run} · ${covers}`;
}

function file(test: ListedTest): string {
  return markdownText(test.testSuite, SHOWN_NAME);
}

/** `1,234`. */
export function formatCount(value: number): string {
  return String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `850 ms`, `2.9 s`, `2 min 3 s`, `1 h 2 min`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

export { LISTED_TESTS };
