import { type RunState, runState } from '../ledger/run-state.js';
import type { RunWithCounts, StoredResult } from '../ledger/store.js';
import { flakyPagePath, runPagePath, runsPagePath } from '../paths.js';
import { statusBar } from './charts.js';
import { failureDetailsBlock, failuresByMessage } from './failure-details.js';
import { formatCount, formatDuration } from './format.js';
import { html, type SafeHtml } from './html.js';
import { countsLine, createdAt, layout, stateBadge, statusClass, tagList, testLink } from './layout.js';

/** How many tests the "Slowest tests" table lists. */
export const SLOWEST_TESTS = 10;

/** Statuses of tests that did not run: their duration says nothing, so they are never among the slowest. */
const NOT_RUN: ReadonlySet<string> = new Set(['skipped', 'todo']);

export interface RunPageInput {
  run: RunWithCounts;
  results: readonly StoredResult[];
  /** Only results whose suite or test name contains this, ignoring case. */
  search: string | undefined;
  /** Only results with this status. */
  status: string | undefined;
  /** A run never completed that received nothing for this long is abandoned. */
  abandonedAfterMs: number;
  now: number;
}

/**
 * GET /runs/{id} : the run's bar and counts, its failed tests first, its slowest tests that ran,
 * then every test grouped by suite (suites with failures first and unfolded).
 */
export function renderRunPage({ run, results, search, status, abandonedAfterMs, now }: RunPageInput): string {
  const state = runState(run, now, abandonedAfterMs);
  const needle = search?.toLowerCase();
  const shown = results.filter(
    (result) =>
      (status === undefined || result.status === status) &&
      (needle === undefined ||
        result.testSuite.toLowerCase().includes(needle) ||
        result.testCase.toLowerCase().includes(needle)),
  );
  const narrowed = status !== undefined || search !== undefined;
  const statuses = Object.keys(run.counts);
  // A filter per status the run holds (and the one chosen): the service counts every status it
  // accepts, but a `todo (0)` link leads nowhere, and reporters send todo tests as skipped by default.
  const filters = statuses.filter((s) => (run.counts[s] ?? 0) > 0 || s === status);
  const failed = shown.filter((result) => result.status === 'failed');
  const slowest = shown
    .filter((result) => !NOT_RUN.has(result.status))
    .sort((a, b) => b.duration - a.duration)
    .slice(0, SLOWEST_TESTS);
  const suites = bySuite(shown);

  const content = html`<p><a href="${runsPagePath()}">← Runs</a></p>
<h1><a class="name" href="${runsPagePath({ project: run.project })}">${run.project}</a> · ${run.framework} ${stateBadge(state)}</h1>
<p class="muted" id="run-state">${stateSentence(run, state, abandonedAfterMs, now)}</p>
<p class="line"><span>${createdAt(run.createdAt, now)}</span><span>${formatCount(run.total)} results in <span title="${run.totalDuration} ms">${formatDuration(run.totalDuration)}</span></span><span>${tagList(run.tags)}</span></p>
<p class="muted">Run <code>${run.id}</code> · <a href="${flakyPagePath(run.project)}">flaky tests in ${run.project}</a></p>
${statusBar(run.counts, run.total)}
<nav class="statuses">${statusLink(run, undefined, `all (${formatCount(run.total)})`, status, search)}${filters.map(
    (s) => statusLink(run, s, `${s} (${formatCount(run.counts[s] ?? 0)})`, status, search),
  )}</nav>
<form class="search" method="get" action="${runPagePath(run.id)}" role="search"><label>Search suites and tests<input type="search" name="q" value="${search ?? ''}"></label>${
    status === undefined ? '' : html`<input type="hidden" name="status" value="${status}">`
  }<button type="submit">Search</button>${narrowed ? html`<a href="${runPagePath(run.id)}">show all</a>` : ''}</form>
${narrowed ? html`<p class="muted" id="shown-summary">${shownSummary(shown.length, run.total, search, status)}</p>` : ''}
${
  failed.length === 0
    ? ''
    : html`<h2 id="failed">Failed (${formatCount(failed.length)})</h2>\n${namedTable('failed-tests', run.project, failed, true)}\n${failuresByMessage(failed)}`
}
${slowest.length === 0 ? '' : html`<h2 id="slowest">Slowest tests</h2>\n${namedTable('slowest-tests', run.project, slowest)}`}
<h2 id="suites">Suites (${formatCount(suites.length)})</h2>
${suites.length === 0 ? html`<p>${results.length === 0 ? 'This run has no results yet.' : 'No results match.'}</p>` : ''}
${suites.map(([suite, suiteResults]) => suiteDetails(run.project, suite, suiteResults, statuses, narrowed))}`;
  return layout(`${run.project} run`, content);
}

/** What the state means for this run, with the time it rests on. */
function stateSentence(run: RunWithCounts, state: RunState, abandonedAfterMs: number, now: number): SafeHtml {
  if (run.end) return html`Ended ${state} ${createdAt(run.end.endedAt, now)}.`;
  const last = html`Last results received ${createdAt(run.lastReceivedAt, now)}`;
  if (state === 'abandoned') {
    return html`Never completed, and nothing received for ${formatDuration(abandonedAfterMs)}: abandoned. ${last}.`;
  }
  return html`Running: not completed yet. ${last}.`;
}

export function renderRunNotFoundPage(runId: string): string {
  return layout('Run not found', html`<p><a href="${runsPagePath()}">← Runs</a></p><h1>No run ${runId}</h1>`);
}

function statusLink(
  run: RunWithCounts,
  linked: string | undefined,
  label: string,
  current: string | undefined,
  search: string | undefined,
): SafeHtml {
  const href = runPagePath(run.id, { status: linked, q: search });
  const classes = [linked === undefined ? '' : statusClass(linked), linked === current ? 'current' : ''];
  return html`<a href="${href}" class="${classes.join(' ').trim()}">${label}</a>`;
}

function shownSummary(shown: number, total: number, search: string | undefined, status: string | undefined) {
  const what = [
    status === undefined ? '' : ` ${status}`,
    search === undefined ? '' : ` matching “${search}”`,
  ];
  return `Showing ${formatCount(shown)} of ${formatCount(total)} results:${what.join('')}.`;
}

/** Results grouped by suite in arrival order; suites with a failed test come first. */
function bySuite(results: readonly StoredResult[]): [string, StoredResult[]][] {
  const suites = new Map<string, StoredResult[]>();
  for (const result of results) {
    const suite = suites.get(result.testSuite);
    if (suite) suite.push(result);
    else suites.set(result.testSuite, [result]);
  }
  // A stable partition, each suite looked at once: failing suites, then the rest, each in arrival order.
  const failing: [string, StoredResult[]][] = [];
  const passing: [string, StoredResult[]][] = [];
  for (const entry of suites) {
    if (entry[1].some((result) => result.status === 'failed')) failing.push(entry);
    else passing.push(entry);
  }
  return [...failing, ...passing];
}

function suiteDetails(
  project: string,
  suite: string,
  results: readonly StoredResult[],
  statuses: readonly string[],
  narrowed: boolean,
): SafeHtml {
  const counts: Record<string, number> = Object.fromEntries(statuses.map((status) => [status, 0]));
  let duration = 0;
  for (const result of results) {
    counts[result.status] = (counts[result.status] ?? 0) + 1;
    duration += result.duration;
  }
  const failedFirst = [...results].sort(
    (a, b) => Number(b.status === 'failed') - Number(a.status === 'failed'),
  );
  const open = narrowed || (counts.failed ?? 0) > 0;
  return html`<details class="suite"${open ? html` open` : ''}>
<summary><span class="name"><strong>${suite}</strong></span> <span class="muted">${formatCount(results.length)} ${results.length === 1 ? 'test' : 'tests'} · ${formatDuration(duration)}</span> · ${countsLine(counts)}${statusBar(counts, results.length)}</summary>
<div class="table-wrap"><table><thead><tr><th>Test</th><th>Status</th><th class="num">Duration</th></tr></thead><tbody>
${failedFirst.map((result) => testRow(project, result))}</tbody></table></div>
</details>
`;
}

/** Tests with their suite: the failed ones, the slowest ones. */
function namedTable(
  id: string,
  project: string,
  results: readonly StoredResult[],
  withDetails = false,
): SafeHtml {
  return html`<div class="table-wrap"><table id="${id}"><thead><tr><th>Test · suite</th><th class="num">Duration</th></tr></thead><tbody>
${results.map(
  (result) =>
    html`<tr class="test" data-status="${result.status}"><td>${testLink({ project, ...result })}<br><span class="muted name">${result.testSuite}</span>${withDetails && failureDetailsBlock(result.details)}</td><td class="num" title="${result.duration} ms">${formatDuration(result.duration)}</td></tr>
`,
)}</tbody></table></div>`;
}

function testRow(project: string, result: StoredResult): SafeHtml {
  return html`<tr class="test" data-status="${result.status}"><td>${testLink({ project, ...result })}</td><td class="status ${statusClass(result.status)}">${result.status}</td><td class="num" title="${result.duration} ms">${formatDuration(result.duration)}</td></tr>
`;
}
